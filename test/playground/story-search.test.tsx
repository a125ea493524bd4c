/**
 * @module Finding a story by typing: the filter (every word, any case, in title, id or summary), the groups,
 * and the sidebar as a keyboard user meets it (`/` to the field, arrows through the links, Enter to open,
 * Escape to clear, "No stories match").
 */
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { StoryList } from '../../src/playground/StoryList.tsx'
import { STORIES } from '../../src/playground/stories.ts'
import { filterStories, groupStories } from '../../src/playground/story-search.ts'
import { readState } from '../../src/playground/url-state.ts'

afterEach(cleanup)

const ids = (query: string) => filterStories(STORIES, query).map((s) => s.id)

describe('filterStories', () => {
  it('finds by title, id and summary, in any case, every word required', () => {
    expect(ids('429')).toEqual(['rate-limit-storm'])
    expect(ids('DARK')).toEqual(['dark-theme'])
    expect(ids('5xx-then')).toEqual(['5xx-then-recovery'])
    // "Retry-After" is only in the 429 story's summary.
    expect(ids('retry-after')).toEqual(['rate-limit-storm'])
    expect(ids('loan duplicate')).toEqual(['loan-duplicate'])
    expect(ids('  ')).toEqual(STORIES.map((s) => s.id))
    expect(ids('zebra')).toEqual([])
  })

  it('groups what it finds as Storybook does, empty groups left out', () => {
    expect(groupStories(filterStories(STORIES, 'loan')).map((g) => g.group)).toEqual([
      'Second look',
      'Loan application',
    ])
    expect(groupStories(STORIES).flatMap((g) => g.stories)).toHaveLength(STORIES.length)
  })
})

describe('StoryList', () => {
  function renderList() {
    const onPick = vi.fn()
    const current = STORIES[0] as (typeof STORIES)[number]
    render(<StoryList state={{ ...readState(''), story: current.id }} current={current} onPick={onPick} />)
    return { onPick, user: userEvent.setup() }
  }
  const links = () => screen.queryAllByRole('link').map((a) => a.textContent)

  it('filters as you type; Enter opens the first match, Escape clears', async () => {
    const { onPick, user } = renderList()
    const field = screen.getByRole('searchbox', { name: 'Find a story' })
    await user.type(field, 'loan app')
    expect(screen.getByRole('heading', { name: 'Loan application' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Offer search' })).toBeNull()
    expect(links()).toHaveLength(STORIES.filter((s) => s.group === 'Loan application').length)
    expect(screen.getByRole('status').textContent).toMatch(/^\d+ stories match$/)
    await user.keyboard('{Enter}')
    expect(onPick).toHaveBeenCalledWith('loan-empty')
    await user.keyboard('{Escape}')
    expect((field as HTMLInputElement).value).toBe('')
    expect(links()).toHaveLength(STORIES.length)
  })

  it('says when nothing matches', async () => {
    const { user } = renderList()
    await user.type(screen.getByRole('searchbox'), 'zebra')
    expect(screen.getByText('No stories match “zebra”')).toBeTruthy()
    expect(links()).toEqual([])
  })

  it('/ focuses the field from the page but not from another field; arrows walk the links', async () => {
    const { onPick, user } = renderList()
    const other = document.body.appendChild(document.createElement('input'))
    other.focus()
    await user.keyboard('/')
    expect(document.activeElement).toBe(other)
    other.remove()
    ;(document.activeElement as HTMLElement).blur()
    await user.keyboard('/')
    const field = screen.getByRole('searchbox')
    expect(document.activeElement).toBe(field)
    expect((field as HTMLInputElement).value).toBe('')
    await user.keyboard('{ArrowDown}{ArrowDown}')
    expect(document.activeElement?.textContent).toBe(STORIES[1]?.title)
    await user.keyboard('{ArrowUp}{ArrowUp}')
    expect(document.activeElement).toBe(field)
    await user.keyboard('{ArrowDown}{Enter}')
    expect(onPick).toHaveBeenCalledWith(STORIES[0]?.id)
    expect(screen.getByRole('link', { name: STORIES[0]?.title }).getAttribute('aria-current')).toBe('page')
  })
})
