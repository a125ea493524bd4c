// The demo publisher's loan application: it collects the lead (docs/partner-interface.md) itself and hands it to the widget
// through the script tag's JS API. The widget never asks for this data; the BFF takes session information
// from the request, not from the lead.
;(() => {
  const form = document.getElementById('loan-application')
  const slot = document.getElementById('second-look-widget')
  if (!form || !slot) return
  let handle
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const v = (name) => form.elements.namedItem(name).value.trim()
    const lead = {
      personalInformation: {
        firstName: v('firstName'),
        lastName: v('lastName'),
        email: v('email'),
        city: v('city'),
        state: v('state').toUpperCase(),
        primaryPhone: v('primaryPhone'),
        address1: v('address1'),
        zipcode: v('zipcode'),
        dateOfBirth: v('dateOfBirth'),
        ssn: v('ssn'),
      },
      loanInformation: { purpose: v('purpose'), loanAmount: Number(v('loanAmount')) || undefined },
      creditInformation: { providedNumericCreditScore: Number(v('creditScore')) },
      financialInformation: { annualIncome: Number(v('annualIncome')) },
      legalInformation: {
        consentsToFcra: form.elements.namedItem('fcra').checked ? 'true' : 'false',
        fcraLanguage: document.getElementById('fcra-text').textContent,
      },
    }
    // A new application is a new search: drop the previous widget first.
    if (handle) handle.unmount()
    handle = window.OfferWidget.mount(slot, {
      endpoint: '',
      source: 'second-look',
      lead,
      headingLevel: 3,
      labels: {
        heading: 'Lenders who took a second look',
        searching: 'Asking lenders',
        // The lenders asked, those who answered and the longest wait (the tier windows), as the BFF reports them.
        lenderProgress: 'Asking {lenders} for you · {answered} answered · at most {seconds} s more',
        lenderProgressOpen: 'Asking {lenders} for you · {answered} answered',
        noOffers: 'No lender could make an offer this time.',
      },
    })
  })
})()
