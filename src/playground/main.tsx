/**
 * @module Playground entry. The story list, controls and event log arrive with the embed issue.
 */
const root = document.getElementById('root')
if (root) root.textContent = 'offer-widget playground: stories arrive with the script-tag embed issue.'
