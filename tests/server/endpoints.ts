import type * as v from 'valibot'
import { AppealUpdate } from '../../src/domain/appeal.ts'
import { BLOCK_SCHEMAS } from '../../src/domain/block.ts'
import { ProjectInput, ProjectRename, ProjectSetType } from '../../src/domain/project.ts'
import { BackgroundSizeFields } from '../../src/domain/requests.ts'
import {
  ForgotPasswordInput,
  LoginInput,
  RegisterInput,
  ResetPasswordInput,
  UpdateProfileInput,
} from '../../src/domain/user.ts'
import { MemberAddInput, WorkspaceInput, WorkspaceUpdate } from '../../src/domain/workspace.ts'
import { RECORD_RULES } from '../../server/services/records.ts'

/**
 * Every endpoint of the API with a valid body (POST) or query (GET), for the tests that send
 * generated requests to all of them (fuzz.test.ts). A sample carries every field its input takes,
 * so a test that spoils one field at a time reaches each of them; `input` is the schema the
 * server checks the body with, to hold the samples to that.
 */
export interface Endpoint {
  method: 'GET' | 'POST'
  path: string
  /** A valid body (POST JSON or form fields) or query (GET), built once the ids exist. */
  sample: () => Record<string, unknown>
  multipart?: boolean
  /** The schema of the body (or form fields) as the server parses it, where it has one. */
  input?: v.GenericSchema
}

/** What the samples refer to: rows of the test's own user, made before the first request. */
export interface EndpointRows {
  /** Ids by name: workspace, project, bg, appeal, and one per record kind and block type. */
  ids: Record<string, number>
  /** The signed-up owner's email (a login sample with a wrong password). */
  ownerEmail: string
}

export const RECORD_KINDS = ['amo', 'bitrix', 'department', 'location', 'specialist'] as const
export const BLOCK_TYPES = [
  'text',
  'button',
  'image',
  'video',
  'gift',
  'price',
  'subscribe',
] as const

/** A valid add body of each record kind, every field given. */
export function recordSamples(rows: EndpointRows): Record<string, Record<string, unknown>> {
  const workspace_id = rows.ids.workspace
  return {
    department: { workspace_id, name: 'Терапия', description: 'Приём' },
    location: {
      workspace_id,
      name: 'Клиника',
      address: 'ул. Ленина, 1',
      phone: '+7 495 000-00-00',
    },
    specialist: {
      workspace_id,
      name: 'Иванова',
      position: 'Терапевт',
      department_id: null,
      location_id: null,
      phone: '+7 495 000-00-01',
      email: 'a@clinic.ru',
      photo_url: '/uploads/photo.png',
      description: 'Стаж 10 лет',
      enabled: true,
    },
    amo: {
      workspace_id,
      name: 'amoCRM',
      subdomain: 'clinic',
      client_id: 'client-1',
      client_secret: 'super-secret-value-1234',
      redirect_uri: 'https://clinic.example/cb',
      long_lived_token: 'long-lived-token-value-5678',
    },
    bitrix: {
      workspace_id,
      name: 'Битрикс24',
      portal_url: 'https://clinic.bitrix24.ru',
      webhook_url: 'https://clinic.bitrix24.ru/rest/7/abcdefgh12345678/',
    },
  }
}

/** A valid new block of each type, every field given. */
export function blockSamples(rows: EndpointRows): Record<string, Record<string, unknown>> {
  const base = { bg_id: rows.ids.bg, x: 1.5, y: -2, zindex: 1, rotation: 0 }
  return {
    text: {
      ...base,
      width: 50,
      fontSize: 4,
      font: 'Roboto',
      align: 'left',
      color: '#112233',
      text: 'Привет',
      background: 'transparent',
      name: 'Заголовок',
    },
    button: {
      ...base,
      width: 20,
      height: 10,
      btn_type: 'link',
      btn_type_value: 'https://clinic.example/',
      name: 'Кнопка',
      border_width: 1,
      border_color: '#1c7ed6',
      fontSize: 3,
      font: 'Roboto',
      align: 'center',
      color: '#ffffff',
      background: '#228be6',
      text: 'Купить',
    },
    image: {
      ...base,
      width: 40,
      height: 30,
      scaleX: 1,
      scaleY: 1,
      name: 'Фото',
      image_url: '/uploads/a.png',
    },
    video: {
      ...base,
      width: 60,
      height: 34,
      scaleX: 1,
      scaleY: 1,
      video_url: 'https://video.example/v',
      video_src: '/uploads/v.mp4',
      name: 'Видео',
    },
    gift: {
      ...base,
      width: 30,
      color: '#e64980',
      text: 'Подарок',
      name: 'Подарок',
      button_url: 'https://clinic.example/gift',
      button_hook_url: 'https://clinic.example/hook',
    },
    price: { ...base, width: 30, color: '#2b8a3e', text: '4 900 ₽', button_text: 'Купить' },
    subscribe: {
      ...base,
      width: 30,
      specialist_id: null,
      date: '2026-05-01',
      action: 'Записаться',
    },
  }
}

/** Every endpoint of docs/API.md, and one that is not there. */
export function apiEndpoints(rows: EndpointRows): Endpoint[] {
  const { ids } = rows
  return [
    {
      method: 'POST',
      path: '/api/register',
      sample: () => ({ name: 'Новый', email: 'new@example.ru', password: 'password123' }),
      input: RegisterInput,
    },
    {
      method: 'POST',
      path: '/api/login',
      sample: () => ({ email: rows.ownerEmail, password: 'wrong-password' }),
      input: LoginInput,
    },
    {
      method: 'POST',
      path: '/api/forgot_password',
      sample: () => ({ email: 'nobody@example.ru' }),
      input: ForgotPasswordInput,
    },
    {
      method: 'POST',
      path: '/api/reset_password',
      sample: () => ({ token: 'not-a-token', password: 'password123' }),
      input: ResetPasswordInput,
    },
    { method: 'POST', path: '/api/logout', sample: () => ({}) },
    { method: 'GET', path: '/api/check_auth', sample: () => ({}) },
    {
      method: 'POST',
      path: '/api/profile/update',
      sample: () => ({ name: 'Имя' }),
      input: UpdateProfileInput,
    },
    { method: 'GET', path: '/api/workspace/list', sample: () => ({}) },
    {
      method: 'POST',
      path: '/api/workspace/add',
      sample: () => ({ name: 'Пространство' }),
      input: WorkspaceInput,
    },
    {
      method: 'POST',
      path: '/api/workspace/update',
      sample: () => ({ id: ids.workspace, name: 'Пространство' }),
      input: WorkspaceUpdate,
    },
    { method: 'POST', path: '/api/workspace/delete', sample: () => ({ id: ids.workspace }) },
    {
      method: 'GET',
      path: '/api/workspace/members',
      sample: () => ({ workspace_id: ids.workspace }),
    },
    {
      method: 'POST',
      path: '/api/workspace/member/add',
      sample: () => ({ workspace_id: ids.workspace, email: 'nobody@example.ru' }),
      input: MemberAddInput,
    },
    {
      method: 'POST',
      path: '/api/workspace/member/remove',
      sample: () => ({ workspace_id: ids.workspace, user_id: 1 }),
    },
    { method: 'POST', path: '/api/workspace/invitation/cancel', sample: () => ({ id: 1 }) },
    { method: 'GET', path: '/api/workspace/invitations', sample: () => ({}) },
    { method: 'POST', path: '/api/workspace/invitation/accept', sample: () => ({ id: 1 }) },
    { method: 'POST', path: '/api/workspace/invitation/decline', sample: () => ({ id: 1 }) },
    {
      method: 'POST',
      path: '/api/workspace/leave',
      sample: () => ({ workspace_id: ids.workspace }),
    },
    ...RECORD_KINDS.flatMap((kind): Endpoint[] => [
      { method: 'GET', path: `/api/${kind}/list`, sample: () => ({ workspace_id: ids.workspace }) },
      { method: 'GET', path: `/api/${kind}/get`, sample: () => ({ id: ids[kind] }) },
      {
        method: 'POST',
        path: `/api/${kind}/add`,
        sample: () => recordSamples(rows)[kind]!,
        input: RECORD_RULES[kind].input,
      },
      {
        method: 'POST',
        path: `/api/${kind}/update`,
        sample: () => ({ ...recordSamples(rows)[kind], id: ids[kind] }),
        input: RECORD_RULES[kind].update,
      },
      { method: 'POST', path: `/api/${kind}/delete`, sample: () => ({ id: ids[kind] }) },
      { method: 'POST', path: `/api/${kind}/disable`, sample: () => ({ id: ids[kind] }) },
      { method: 'POST', path: `/api/${kind}/able`, sample: () => ({ id: ids[kind] }) },
    ]),
    { method: 'GET', path: '/api/project_types/list', sample: () => ({}) },
    { method: 'GET', path: '/api/project/list', sample: () => ({ workspace_id: ids.workspace }) },
    { method: 'GET', path: '/api/project/get', sample: () => ({ project_id: ids.project }) },
    { method: 'GET', path: '/api/project/get_items', sample: () => ({ bg_id: ids.bg }) },
    {
      method: 'POST',
      path: '/api/project/add',
      sample: () => ({ workspace_id: ids.workspace, name: 'Проект' }),
      input: ProjectInput,
    },
    {
      method: 'POST',
      path: '/api/project/rename',
      sample: () => ({ id: ids.project, name: 'Проект' }),
      input: ProjectRename,
    },
    {
      method: 'POST',
      path: '/api/project/set_type',
      sample: () => ({ project_id: ids.project, type: 1 }),
      input: ProjectSetType,
    },
    { method: 'GET', path: '/api/project/copy', sample: () => ({ id: ids.project }) },
    { method: 'GET', path: '/api/project/delete', sample: () => ({ id: ids.project }) },
    {
      method: 'POST',
      path: '/api/project/add_bg',
      sample: () => ({ project_id: String(ids.project), width: '1600', height: '900' }),
      multipart: true,
      input: BackgroundSizeFields,
    },
    { method: 'POST', path: '/api/project/delete_bg', sample: () => ({ id: ids.bg }) },
    { method: 'POST', path: '/api/image/upload', sample: () => ({}), multipart: true },
    ...BLOCK_TYPES.map((type): Endpoint => ({
      method: 'POST',
      path: `/api/${type}/add`,
      sample: () => blockSamples(rows)[type]!,
      input: BLOCK_SCHEMAS[type],
    })),
    ...(['gift', 'price', 'subscribe'] as const).flatMap((type): Endpoint[] => [
      {
        method: 'POST',
        path: `/api/${type}/update`,
        sample: () => ({ ...blockSamples(rows)[type], id: ids[type] }),
        input: BLOCK_SCHEMAS[type],
      },
      { method: 'POST', path: `/api/${type}/delete`, sample: () => ({ id: ids[type] }) },
    ]),
    { method: 'POST', path: '/api/project/delete_item', sample: () => ({ id: ids.text }) },
    // Visitors' requests and the integrations' state (docs/API.md, "Requests").
    { method: 'GET', path: '/api/appeal/list', sample: () => ({ workspace_id: ids.workspace }) },
    { method: 'GET', path: '/api/appeal/get', sample: () => ({ id: ids.appeal }) },
    {
      method: 'POST',
      path: '/api/appeal/update',
      sample: () => ({ id: ids.appeal, status: 'in_work' }),
      input: AppealUpdate,
    },
    { method: 'POST', path: '/api/appeal/retry', sample: () => ({ id: ids.appeal }) },
    { method: 'POST', path: '/api/appeal/delete', sample: () => ({ id: ids.appeal }) },
    {
      method: 'GET',
      path: '/api/integration/state',
      sample: () => ({ workspace_id: ids.workspace }),
    },
    { method: 'POST', path: '/api/amo/check', sample: () => ({ id: ids.amo }) },
    { method: 'POST', path: '/api/bitrix/check', sample: () => ({ id: ids.bitrix }) },
    { method: 'POST', path: '/api/amo/connect', sample: () => ({ id: ids.amo }) },
    {
      method: 'GET',
      path: '/api/amo/oauth/callback',
      sample: () => ({ code: 'code', state: 'no-such-state', referer: 'clinic.amocrm.ru' }),
    },
    {
      method: 'GET',
      path: '/api/workspace/hook_secret',
      sample: () => ({ workspace_id: ids.workspace }),
    },
    { method: 'GET', path: '/api/no/such/call', sample: () => ({}) },
  ]
}
