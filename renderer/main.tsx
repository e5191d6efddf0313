import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App.tsx';
// Styles, one file per feature, in the order of the cascade (later files win ties).
import './core/base.css';
import './request/request.css';
import './shell/modal-and-tabs.css';
import './metrics/metrics.css';
import './runs/runs.css';
import './sweeps/sweeps.css';
import './metrics/side-by-side.css';
import './core/late.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
