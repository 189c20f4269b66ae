import { mount } from 'svelte';
import App from './App.svelte';
import { applyConnectPolicy } from './csp.ts';
import { allowedAtLoad, applyTheme, storedTheme } from './state/index.ts';
import './styles/tokens.css';
import './styles/card.css';

// The policy first: if it fails, the app never runs without it.
applyConnectPolicy(allowedAtLoad());
// Before the first paint, so a dark page never flashes light.
applyTheme(storedTheme());
mount(App, { target: document.getElementById('app')! });
