import { cargoObserver } from './cargo-observer.js';
import { goObserver } from './go-observer.js';
import { nodeObserver } from './node-observer.js';
import { pythonObserver } from './python-observer.js';
import type { Observer } from './types.js';

/** Every observer, each inert in processes that are not its runners'. */
export const OBSERVERS: readonly Observer[] = [nodeObserver, pythonObserver, goObserver, cargoObserver];
