// <profile-editor>: a labelled input and a button inside an OPEN shadow root, the shape of
// most design-system components. Agents must pierce the shadow boundary to see or use them.

const template = document.createElement('template');
template.innerHTML = `
  <style>
    :host { display: block; max-width: 420px; }
    section { border: 1px solid #d6dae3; border-radius: 8px; padding: 16px; background: #fff; }
    label { display: block; font-weight: 600; margin-bottom: 4px; }
    input { font: inherit; padding: 6px 8px; width: 100%; box-sizing: border-box; }
    button { font: inherit; margin-top: 12px; padding: 6px 14px; }
    p { margin: 12px 0 0; }
  </style>
  <section aria-labelledby="editor-heading">
    <h2 id="editor-heading">Edit profile</h2>
    <label for="display-name">Display name</label>
    <input type="text" id="display-name" name="displayName" autocomplete="nickname" />
    <button type="button" id="update">Update name</button>
    <p id="status" role="status"></p>
  </section>
`;

class ProfileEditor extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.append(template.content.cloneNode(true));
    const input = root.getElementById('display-name');
    const status = root.getElementById('status');
    input.value = this.getAttribute('display-name') ?? '';
    root.getElementById('update').addEventListener('click', () => {
      const name = input.value.trim();
      if (!name) {
        status.textContent = 'Display name cannot be empty.';
        return;
      }
      this.setAttribute('display-name', name);
      status.textContent = `Display name updated to ${name}.`;
      // composed: the page outside the shadow root listens for this.
      this.dispatchEvent(
        new CustomEvent('display-name-change', { detail: { name }, bubbles: true, composed: true }),
      );
    });
  }
}

customElements.define('profile-editor', ProfileEditor);

document.addEventListener('display-name-change', (event) => {
  document.getElementById('header-name').textContent = event.detail.name;
});
