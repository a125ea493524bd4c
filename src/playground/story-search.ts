/**
 * @module Finding a story by typing, as Storybook's sidebar search does: every word typed must appear,
 * case-insensitively, in the story's title, id or summary; the matches keep the stories' order and are shown
 * under their groups (story.ts `STORY_GROUPS`), a group with no match left out.
 */
import { STORY_GROUPS, type Story, type StoryGroup } from './story.ts'

/** The stories `query` finds, in their own order; an empty query finds them all. */
export function filterStories(stories: readonly Story[], query: string): Story[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...stories]
  return stories.filter((story) => {
    const haystack = `${story.title}\n${story.id}\n${story.summary}`.toLowerCase()
    return words.every((word) => haystack.includes(word))
  })
}

/** `stories` under their groups, in the groups' order; empty groups left out. */
export function groupStories(stories: readonly Story[]): { group: StoryGroup; stories: Story[] }[] {
  return STORY_GROUPS.map((group) => ({ group, stories: stories.filter((s) => s.group === group) })).filter(
    (entry) => entry.stories.length > 0,
  )
}
