/** 'daily-time-record' -> 'Daily Time Record': the label a key gets when nobody wrote one. */
export function titleCase(key: string): string {
  return key
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ')
}
