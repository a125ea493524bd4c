/**
 * @module The results below the progress line, wrapped so nothing in them jumps when an update moves it
 * (layout-flip.ts). A class because only `getSnapshotBeforeUpdate` reads the DOM after render and before
 * React mutates it: positions read any earlier go stale on a resize, any later are already the new ones.
 */
import { Component, createRef, type ReactNode } from 'react'
import { type Positions, playFlip, prefersReducedMotion, readPositions } from './layout-flip.ts'

export interface StableLayoutProps {
  children: ReactNode
}

export class StableLayout extends Component<StableLayoutProps> {
  private readonly container = createRef<HTMLDivElement>()

  override getSnapshotBeforeUpdate(): Positions | null {
    return this.container.current ? readPositions(this.container.current) : null
  }

  override componentDidUpdate(_props: StableLayoutProps, _state: unknown, before: Positions | null): void {
    const container = this.container.current
    if (container && before)
      playFlip(container, before, prefersReducedMotion(container.ownerDocument.defaultView))
  }

  override render() {
    return <div ref={this.container}>{this.props.children}</div>
  }
}
