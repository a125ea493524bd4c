/**
 * @module The toolbar's Outline and Measure toggles (Storybook's outline and measure addons): pressed
 * buttons, kept in the link; the frame draws them (frame/inspect.ts).
 */
export interface InspectTogglesProps {
  outline: boolean
  measure: boolean
  onChange: (patch: { outline?: boolean; measure?: boolean }) => void
}

export function InspectToggles({ outline, measure, onChange }: InspectTogglesProps) {
  return (
    <fieldset className="pg-inspect">
      <legend>Inspect</legend>
      <button
        type="button"
        aria-pressed={outline}
        title="Outline every element"
        onClick={() => onChange({ outline: !outline })}
      >
        Outline
      </button>
      <button
        type="button"
        aria-pressed={measure}
        title="Hover an element to see its size, margin and padding"
        onClick={() => onChange({ measure: !measure })}
      >
        Measure
      </button>
    </fieldset>
  )
}
