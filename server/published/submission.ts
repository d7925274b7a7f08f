/**
 * A visitor's request as the submit route hands it on (docs/requests.md): checked, its phone
 * normalised, its spam verdict made. Whoever receives it stores it with its deliveries, once per
 * (project, submission id).
 */
export interface Submission {
  workspace_id: number
  project_id: number
  block_id: number
  kind: 'gift' | 'price' | 'subscribe'
  name: string
  /** +7XXXXXXXXXX */
  phone: string
  email: string
  comment: string
  specialist_id: number | null
  date: string
  price: number | null
  utm: Partial<
    Record<'utm_source' | 'utm_medium' | 'utm_campaign' | 'utm_content' | 'utm_term', string>
  >
  referrer: string
  page_url: string
  project_name: string
  /** The form's random id: the same id twice is one request. */
  submission_id: string
  ip: string
  user_agent: string
  /** Kept with status 'spam', never delivered. */
  spam: boolean
  /** The gift block's button_hook_url ('' when none). */
  hook_url: string
}

export interface SubmissionSink {
  submit(submission: Submission): Promise<{ id: number; created: boolean }>
}
