/** Every endpoint the sync engine calls, as one object (tests may wrap or replace it). */
export * from './appeals.ts'
export * from './blocks.ts'
export * from './projects.ts'
export * from './records.ts'
export * from './workspaces.ts'
