import sharp from 'sharp';
import { Engines, type EnginesOptions } from './engines';
import { engineModules } from './modules/index';

/** The server's engines from their validated settings (`Config.engines`, or config's loadEngineConfig in tests). */
export function createEngines(settings: EnginesOptions): Engines {
  // libvips keeps recent operations' results (50 MB, 100 operations) to reuse on the same input: every request here
  // brings its own input, so the cache only held memory, resident until the process ends.
  sharp.cache(false);
  return new Engines(engineModules, settings);
}
