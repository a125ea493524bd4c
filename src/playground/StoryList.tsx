/**
 * @module The sidebar: a search field over the stories (`/` focuses it, as in Storybook; Escape clears it,
 * Enter opens the first match, the arrow keys walk the list) and the stories under their groups, each a link
 * to its own URL with `aria-current` on the open one. A click opens a story in place, with its own args.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { STORIES } from './stories.ts'
import type { Story } from './story.ts'
import { filterStories, groupStories } from './story-search.ts'
import { type PlaygroundState, writeState } from './url-state.ts'

export interface StoryListProps {
  state: PlaygroundState
  current: Story
  onPick: (id: string) => void
}

/** Typing `/` outside a field focuses the search, unless a field or an editable element has the keys. */
function typingElsewhere(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null
  return (
    !!element &&
    (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName.toUpperCase()))
  )
}

const groupId = (group: string) => `pg-group-${group.toLowerCase().replace(/\W+/g, '-')}`

// long-function: the sidebar's search, groups and keyboard moves over one filtered list they share
export function StoryList({ state, current, onPick }: StoryListProps) {
  const [query, setQuery] = useState('')
  const search = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const hintId = useId()
  const found = filterStories(STORIES, query)

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
      if (typingElsewhere(event.target)) return
      event.preventDefault()
      search.current?.focus()
      search.current?.select()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const links = () => [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])]
  /** Arrow keys from the field or a link: the next or previous link; up from the first, the field. */
  const walk = (event: KeyboardEvent, from: number) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    if (step === 0) return
    event.preventDefault()
    const all = links()
    const next = from + step
    if (next < 0) search.current?.focus()
    else all[Math.min(next, all.length - 1)]?.focus()
  }

  return (
    <nav className="pg-stories" aria-label="Stories">
      <h1>offer-widget</h1>
      <div className="pg-search">
        <label htmlFor="pg-search">Find a story</label>
        <input
          ref={search}
          id="pg-search"
          type="search"
          value={query}
          placeholder="Find stories"
          autoComplete="off"
          aria-describedby={hintId}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault()
              setQuery('')
            } else if (event.key === 'Enter') {
              event.preventDefault()
              const first = found[0]
              if (first) onPick(first.id)
            } else walk(event, -1)
          }}
        />
        <span className="pg-kbd" aria-hidden="true">
          /
        </span>
        <p id={hintId} className="pg-visually-hidden">
          Press slash to come back here, Enter to open the first match, the down arrow to walk the list.
        </p>
      </div>
      <p className="pg-visually-hidden" role="status">
        {query ? `${found.length} ${found.length === 1 ? 'story matches' : 'stories match'}` : ''}
      </p>
      {found.length === 0 && <p className="pg-search-none">No stories match “{query.trim()}”</p>}
      <div ref={list}>
        {groupStories(found).map(({ group, stories }) => (
          <section key={group} className="pg-story-group" aria-labelledby={groupId(group)}>
            <h2 id={groupId(group)}>{group}</h2>
            <ul>
              {stories.map((s) => (
                <li key={s.id}>
                  <a
                    href={writeState({ ...state, story: s.id, overrides: {} })}
                    aria-current={s.id === current.id ? 'page' : undefined}
                    data-story={s.id}
                    onClick={(event) => {
                      event.preventDefault()
                      onPick(s.id)
                    }}
                    onKeyDown={(event) => walk(event, links().indexOf(event.currentTarget))}
                  >
                    {s.title}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  )
}
