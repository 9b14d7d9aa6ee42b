/**
 * The test kit's named sample models, one set for the tests of every package: the engine's tests
 * use them from the semantic package's test-support, the server's from here.
 */
export { bareCube, BROKEN_CUBE, countCube, ORDERS_CUBE } from '../../../semantic/src/test-support/models.js';
