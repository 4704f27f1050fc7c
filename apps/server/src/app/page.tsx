export default function Home() {
  return (
    <main>
      <h1>Tandem</h1>
      <p>
        The backend of the Tandem browser agent is running. The extension talks to{' '}
        <code>/api/agent/interact</code>; check the server with{' '}
        <a href="/api/health">/api/health</a>.
      </p>
      <p>
        <a href="/extractions">Extract documents</a>: invoices, claim forms and lab reports into
        fields you can check and correct.
      </p>
      <p>
        <a href="/admin">Admin</a> (an admin API key): tasks and their traces, billing, knowledge
        sources and crawls.
      </p>
    </main>
  );
}
