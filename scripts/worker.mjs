// `npm run worker`: a worker node (PROCESSING_MODE=worker): it runs the jobs the API nodes admit into the shared
// database (DATABASE_URL) and sends their webhooks; it takes no HTTP. Everything else is `npm start`'s.
process.env.PROCESSING_MODE = 'worker';
await import('./start.mjs');
