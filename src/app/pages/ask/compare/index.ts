/** The Ask page's comparison of several workflows: the button beside Run, and the view of the runs side by side. */
export { default as CompareButton } from './compare-button.svelte';
export { default as CompareView } from './compare-view.svelte';
