/**
 * @module Every story's play script ends in what the story is for: at least one expected result, the last
 * step being one (a script that acts last checks nothing of what its action led to), every step a kind the
 * frame accepts, and plays only in msw mode (stories.ts `storyPlay`).
 */
import { describe, expect, it } from 'vitest'
import { isExpectation, playStepsSchema } from '../../src/playground/frame/play-step.ts'
import { STORIES, storyPlay } from '../../src/playground/stories.ts'

describe('story play scripts', () => {
  it('every story has one, ending in an expected result, in msw mode only', () => {
    for (const story of STORIES) {
      const play = storyPlay(story, 'msw') ?? []
      expect(play.filter(isExpectation).length, story.id).toBeGreaterThan(0)
      expect(play.at(-1) && isExpectation(play.at(-1) as (typeof play)[number]), story.id).toBe(true)
      expect(playStepsSchema.safeParse(play).success, story.id).toBe(true)
      expect(storyPlay(story, 'bff'), story.id).toBeUndefined()
    }
  })
})
