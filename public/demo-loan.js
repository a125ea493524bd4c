// The demo publisher's second look, through the script tag's JS API: the widget shows its own loan
// application (the lead's fields and the operator's consent texts), sends the lead to the BFF, and shows the
// lenders' offers. A publisher with its own application passes the complete lead as `lead` instead; any
// fields it already knows can be passed the same way to prefill the widget's application.
;(() => {
  const slot = document.getElementById('second-look-widget')
  if (!slot) return
  window.OfferWidget.mount(slot, {
    endpoint: '',
    source: 'second-look',
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
})()
