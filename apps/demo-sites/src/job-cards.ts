// The job board's cards as a reader of its Markdown content snapshot sees them, for the
// scripted models (e2e, bench tasks) that collect listings like a model would. One reader for
// both, beside the board that renders the cards (jobs.ts).

export interface JobCard {
  title: string;
  company: string;
  location: string;
  jobId?: string;
}

/**
 * Cards of a Markdown content snapshot of a list: one list item per card, whose lines are the
 * title (a heading), company, location and an optional "Job ID: …" line.
 */
export function jobCardsIn(snapshot: string): JobCard[] {
  const cards: JobCard[] = [];
  for (const block of snapshot.split(/\n(?=(?:\d+\.|[-*])\s)/)) {
    const lines = block
      .split('\n')
      .map((l) =>
        l
          .replace(/^(?:\d+\.|[-*])\s+/, '')
          .trim()
          .replace(/^#+\s*/, ''),
      )
      .filter((l) => l && !l.startsWith('<!--'));
    const jobId = /Job ID:\s*(\S+)/.exec(block)?.[1];
    const [title, company, location] = lines.filter((l) => !l.startsWith('Job ID:'));
    if (!title || !company) continue;
    cards.push({
      title: title.replace(/\s*Promoted$/, ''),
      company,
      location: location ?? '',
      ...(jobId ? { jobId } : {}),
    });
  }
  return cards;
}
