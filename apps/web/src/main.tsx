import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';

function App() {
  return (
    <main className="min-h-screen grid place-items-center bg-slate-50 text-slate-900">
      <h1 className="text-3xl font-bold">DocFlow</h1>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
