export { default as AnswerRating } from './answer-rating.svelte';
