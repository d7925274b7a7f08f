import type { CommandName, Commands } from '../sync/service.ts'
import { runCommand } from './port.ts'

/**
 * The mirror's commands for the page: each writes the local record and queues it for the server in
 * one transaction where the database lives (src/sync/mutators/), and resolves once it is stored.
 * Same names and signatures as there.
 */
function command<N extends CommandName>(name: N): Commands[N] {
  return ((...args: unknown[]) => runCommand(name, args)) as Commands[N]
}

export const setCurrentWorkspace = command('setCurrentWorkspace')
export const createWorkspace = command('createWorkspace')
export const renameWorkspace = command('renameWorkspace')
export const deleteWorkspace = command('deleteWorkspace')
export const createRecord = command('createRecord')
export const updateRecord = command('updateRecord')
export const deleteRecord = command('deleteRecord')
export const setRecordEnabled = command('setRecordEnabled')
export const createProject = command('createProject')
export const renameProject = command('renameProject')
export const setProjectType = command('setProjectType')
export const copyProject = command('copyProject')
export const deleteProject = command('deleteProject')
export const publishProject = command('publishProject')
export const unpublishProject = command('unpublishProject')
export const setProjectSlug = command('setProjectSlug')
export const addBackground = command('addBackground')
export const deleteBackground = command('deleteBackground')
export const saveBlocks = command('saveBlocks')
export const deleteBlocks = command('deleteBlocks')
export const uploadFile = command('uploadFile')
export const setAppealStatus = command('setAppealStatus')
export const deleteAppeal = command('deleteAppeal')
export const storeAuthToken = command('storeAuthToken')
export const unsyncedCount = command('unsyncedCount')
export const claimMirror = command('claimMirror')
