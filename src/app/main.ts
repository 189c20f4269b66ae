import { mount } from 'svelte';
import App from './App.svelte';
import './styles/tokens.css';
import './styles/card.css';
import './styles/numbers-table.css';

mount(App, { target: document.getElementById('app')! });
