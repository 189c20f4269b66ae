export { default as ConnectNotice } from './connect-notice.svelte';
