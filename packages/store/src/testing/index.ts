// Test helpers for adapters and callers of the store (imported as `@tandem/store/testing`).
export { runStoreContractSuite } from './contract-suite';
export { expectedRollup } from './contract/usage';
export { testEnv } from './env';
export { routineRecord } from './routine-record';
