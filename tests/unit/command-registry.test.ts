import { describe, expect, it } from 'vitest'
import { appealCommands } from '../../src/sync/mutators/appeals.ts'
import { backgroundCommands } from '../../src/sync/mutators/backgrounds.ts'
import { blockCommands } from '../../src/sync/mutators/blocks.ts'
import { fileCommands } from '../../src/sync/mutators/files.ts'
import { COMMANDS } from '../../src/sync/mutators/index.ts'
import { projectCommands } from '../../src/sync/mutators/projects.ts'
import { publishingCommands } from '../../src/sync/mutators/publishing.ts'
import { recordCommands } from '../../src/sync/mutators/records.ts'
import { workspaceCommands } from '../../src/sync/mutators/workspaces.ts'

/** The registry of commands (docs/SYNC.md, "Adding a command"). */
describe('the commands registry', () => {
  it('holds every module’s commands, no name defined twice', () => {
    const tables = [
      workspaceCommands,
      recordCommands,
      projectCommands,
      publishingCommands,
      backgroundCommands,
      blockCommands,
      fileCommands,
      appealCommands,
    ]
    const names = tables.flatMap((table) => Object.keys(table))
    // A name two modules define: the later spread into COMMANDS would silently win.
    expect(names.length).toBe(new Set(names).size)
    expect(Object.keys(COMMANDS).sort()).toEqual([...names].sort())
  })
})
