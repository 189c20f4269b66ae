import { mount } from 'svelte';
import App from './App.svelte';
import { applyConnectPolicy } from './csp.ts';
import { allowedAtLoad } from './state/index.ts';
import './styles/tokens.css';
import './styles/card.css';

// The policy first: if it fails, the app never runs without it.
applyConnectPolicy(allowedAtLoad());
mount(App, { target: document.getElementById('app')! });
