export { AsyncEmitter, TimeoutError } from './async.js';
export { Emitter } from './emitter.js';
export { ReplayBuffer } from './replay.js';
export { checkTopic, compilePattern } from './topics.js';
