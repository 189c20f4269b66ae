export { default as NumbersTable } from './numbers-table.svelte';
