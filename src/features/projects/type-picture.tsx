import type { ProjectTypeId } from '../../domain/project.ts'

/** A small drawing of each editor's format: stacked wide sections, or portrait slides on a phone. */
export function TypePicture({ type }: { type: ProjectTypeId }) {
  if (type === 1)
    return (
      <svg viewBox="0 0 160 100" width="160" height="100" aria-hidden focusable="false">
        <rect x="4" y="4" width="152" height="92" rx="6" fill="#f1f3f5" stroke="#adb5bd" />
        <rect x="4" y="4" width="152" height="12" rx="6" fill="#dee2e6" />
        <circle cx="12" cy="10" r="2" fill="#fa5252" />
        <circle cx="19" cy="10" r="2" fill="#fab005" />
        <circle cx="26" cy="10" r="2" fill="#40c057" />
        <rect x="14" y="22" width="132" height="30" rx="3" fill="#a5d8ff" />
        <rect x="24" y="30" width="60" height="6" rx="2" fill="#1c7ed6" />
        <rect x="24" y="40" width="30" height="6" rx="3" fill="#fff" />
        <rect x="14" y="56" width="132" height="30" rx="3" fill="#d0bfff" />
        <rect x="90" y="64" width="46" height="14" rx="2" fill="#fff" />
        <path d="M150 60 v20" stroke="#868e96" strokeWidth="2" strokeLinecap="round" />
      </svg>
    )
  return (
    <svg viewBox="0 0 160 100" width="160" height="100" aria-hidden focusable="false">
      <rect x="56" y="4" width="48" height="92" rx="8" fill="#212529" />
      <rect x="60" y="10" width="40" height="80" rx="4" fill="#ffc9c9" />
      <rect x="63" y="13" width="10" height="2" rx="1" fill="#fff" />
      <rect x="75" y="13" width="10" height="2" rx="1" fill="#fff" opacity="0.5" />
      <rect x="87" y="13" width="10" height="2" rx="1" fill="#fff" opacity="0.5" />
      <rect x="66" y="56" width="28" height="6" rx="2" fill="#c92a2a" />
      <rect x="68" y="68" width="24" height="9" rx="4" fill="#fff" />
      <rect x="20" y="18" width="30" height="60" rx="4" fill="#ffe8cc" opacity="0.8" />
      <rect x="110" y="18" width="30" height="60" rx="4" fill="#c3fae8" opacity="0.8" />
      <path
        d="M44 48 l-6 -5 m6 5 l-6 5"
        stroke="#868e96"
        strokeWidth="2"
        strokeLinecap="round"
        fill="none"
      />
    </svg>
  )
}
