// The Node.js options the launchers (start.mjs, fleet.mjs) run the compiled API server with, each for its memory
// (npm run bench -- footprint).
export const serverNodeOptions = [
  // V8 grows the young generation to 64 MB semi-spaces on a large machine, all of it resident once used; a server
  // whose uploads live outside the heap loses nothing measurable with 8 MB (npm run bench -- footprint, overhead).
  '--max-semi-space-size=8',
  // The embedded database is WebAssembly (PGlite): V8's optimizing tier recompiled its hot functions in the
  // background, holding 50 to 500 MB at a time and leaving the server between 170 and 670 MB from one start to the
  // next. The baseline compiler alone keeps it at ~85 MB, and its queries ran no slower (3,000 lookups: 1.5 s).
  '--liftoff-only',
  // V8's choices for memory over speed (smaller heap growth steps, less inlining): 25-50 MB less resident after a
  // load of requests; the server's own JavaScript is a small part of a document's time (the tools do the work), and
  // the footprint bench's soak ran no slower (npm run bench -- footprint).
  '--optimize-for-size',
];

/** The environment the launchers add to the server's. */
export const serverEnv = {
  // glibc gives each thread that allocates its own arena (up to 8 per core): libvips' and the WebAssembly
  // compiler's threads left tens of MB of freed memory resident in arenas of their own.
  MALLOC_ARENA_MAX: '2',
};
