/** The PostgreSQL schema holding the sample dataset both planners' SQL reads. */
export const SCHEMA = 'plinth_peer_bench';
