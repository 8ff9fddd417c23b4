declare module 'vitest' {
  export interface ProvidedContext {
    databaseDriver: 'pglite' | 'postgres';
    /** Removed at the end of the run (see temp-dir-global-setup.ts). */
    tempRoot: string;
    /** Only in the postgres project (see postgres-global-setup.ts). */
    postgresUrl: string;
  }
}

export {};
