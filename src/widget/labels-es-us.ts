/**
 * @module The widget's labels in US Spanish (es-US), its loan application's included: `<OfferWidget labels={LABELS_ES_US}>`, or `data-labels`
 * / the `labels` attribute from the script tag. Typed as the English `Labels`, so a label added there and
 * not translated here fails `npm run typecheck`. Formal "usted", as US Spanish financial sites address
 * visitors; neutral wording where Spanish would otherwise choose a gender ("¿Su vivienda es propia?").
 * Placeholders (`{count}`, `{offers}`, `{sources}`) are filled by the widget with small whole numbers, which
 * read the same in both locales.
 */
import type { Labels } from './labels.ts'
import type { LoanLabels } from './loan-application/loan-labels.ts'
import { LOAN_LABELS_ES_US } from './loan-application/loan-labels-es-us.ts'

export const LABELS_ES_US: Labels & LoanLabels = {
  // The loan application's (a second look's), in the same pack: one pack per language.
  ...LOAN_LABELS_ES_US,
  loading: 'Cargando ofertas…',
  formHeading: 'Compare tarifas de seguro de auto',
  formIntro: 'Cuéntenos un poco sobre usted para ver sus ofertas.',
  zipCode: 'Código postal',
  dateOfBirth: 'Fecha de nacimiento',
  currentIssuer: 'Aseguradora actual',
  notInsured: 'Actualmente sin seguro',
  insured: 'Actualmente con seguro',
  chooseIssuer: 'Su aseguradora',
  issuersLoading: 'Cargando aseguradoras…',
  issuersUnavailable: 'No pudimos cargar la lista de aseguradoras. Puede omitir esta pregunta.',
  numberOfVehicles: 'Número de vehículos',
  choose: 'Elija…',
  isHomeOwner: '¿Su vivienda es propia?',
  isMilitary: '¿Presta servicio militar activo, es veterano o veterana, o pertenece a una familia militar?',
  yes: 'Sí',
  no: 'No',
  optional: '(opcional)',
  submit: 'Ver mis tarifas',
  zipCodeRequired: 'Ingrese su código postal.',
  zipCodeInvalid: 'Ingrese un código postal de 5 dígitos, como 94107.',
  zipCodeZeros: 'Ese código postal no existe. Ingrese el código postal de donde vive.',
  dateOfBirthInvalid: 'Ingrese una fecha de nacimiento válida, anterior a hoy.',
  dateOfBirthAge: 'Los conductores deben tener entre 16 y 100 años. Revise la fecha de nacimiento.',
  numberOfVehiclesInvalid: 'Elija un número de vehículos del 1 al 20.',
  currentIssuerInvalid: 'Elija su aseguradora actual de la lista, o “Actualmente sin seguro”.',
  choiceInvalid: 'Elija sí o no.',
  searchRefused: 'No pudimos buscar con estos datos. Revíselos e inténtelo de nuevo.',
  formErrors: 'Corrija los campos marcados.',
  heading: 'Sus ofertas de seguro de auto',
  starting: 'Iniciando su búsqueda…',
  searching: 'Buscando aseguradoras',
  progress: '{offers} hasta ahora; seguimos consultando {sources}',
  progressNone: 'Buscando ofertas en {sources}…',
  offersOne: '1 oferta',
  offersMany: '{count} ofertas',
  sourcesOne: '1 fuente',
  sourcesMany: '{count} fuentes',
  lenderProgress: 'Consultando a {lenders} · {answered} respondieron · quedan hasta {seconds} s',
  lenderProgressOpen: 'Consultando a {lenders} · {answered} respondieron',
  lendersOne: '1 prestamista',
  lendersMany: '{count} prestamistas',
  partial: 'No se pudieron cargar algunas cotizaciones. Las ofertas de abajo siguen disponibles.',
  newOffer: '1 oferta nueva',
  newOffers: '{count} ofertas nuevas',
  complete: 'Búsqueda completa: {count} ofertas.',
  completeOne: 'Búsqueda completa: 1 oferta.',
  completeNone: 'Búsqueda completa.',
  showingBest: 'Se muestran {shown}, empezando por {first}.',
  noOffers: 'En este momento no hay ofertas que coincidan con sus datos.',
  error: 'No pudimos cargar las ofertas en este momento. Inténtelo de nuevo.',
  tryAgain: 'Intentar de nuevo',
  viewRate: 'Ver tarifa',
  moreDetails: 'Más detalles',
  fewerDetails: 'Menos detalles',
  moreOffers: 'Mostrar {count} más',
  changeDetails: 'Cambiar datos',
  noOffersNext: 'Con otros datos podrían aparecer otras ofertas.',
  sponsored: 'Patrocinado',
  disclosure: 'Divulgación del anunciante',
  disclosureText:
    'Las empresas cuyas ofertas aparecen aquí pueden pagarnos cuando usted ve o elige una oferta. Eso puede influir en qué ofertas aparecen y en su orden. No se muestran todas las empresas ni todas las ofertas disponibles para usted.',
  opensInNewTab: 'se abre en una pestaña nueva',
  disclaimers: 'Avisos legales',
  lang: 'es',
}
