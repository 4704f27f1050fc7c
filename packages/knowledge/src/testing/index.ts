export {
  DEFAULT_CONCEPTS,
  fakeEmbedding,
  startFakeEmbeddingsServer,
  type FakeEmbeddingsOptions,
  type FakeEmbeddingsServer,
} from './fake-embeddings';
