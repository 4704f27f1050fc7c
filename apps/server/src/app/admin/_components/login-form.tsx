// The sign-in form: the key is POSTed once to /admin/session, which keeps it in an httpOnly
// cookie; it never appears in a URL.
export function LoginForm({ next, label = 'Sign in' }: { next: string; label?: string }) {
  return (
    <form method="post" action="/admin/session" className="login">
      <label htmlFor="admin-key">Admin API key</label>
      <input
        id="admin-key"
        name="key"
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder="tdm_…"
        required
      />
      <input type="hidden" name="next" value={next} />
      <button type="submit">{label}</button>
    </form>
  );
}
