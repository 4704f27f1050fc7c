// Role codes (the V3 `r` key). Short because the tree is sent every step; the codes are the
// contract's KNOWN_NODE_ROLES plus a few pass-throughs.
//
//   native element / ARIA role                          -> code
//   a[href], role=link                                  -> link
//   button, input[type=button|submit|reset|image],
//     summary, role=button, [onclick], focusable leaf   -> btn
//   input (text-like types), role=textbox|searchbox|
//     spinbutton                                        -> inp   (password: value masked)
//   textarea                                            -> txt
//   input[type=checkbox], role=checkbox|menuitemcheckbox-> chk
//   input[type=radio], role=radio|menuitemradio         -> radio
//   select, role=listbox                                -> sel
//   role=combobox, input[list]                          -> combo
//   role=option (native <option>s are covered by sel)   -> opt
//   role=menuitem                                       -> menu
//   role=tab                                            -> tab
//   role=switch                                         -> sw
//   input[type=range], role=slider                      -> sld
//   contenteditable root                                -> edit
//   input[type=file]                                    -> file
//   role=treeitem                                       -> treeitem
//
// cursor:pointer alone does not make an element interactive here: it needs getComputedStyle
// per element, which would blow the capture-time budget.

export const ARIA_ROLE_CODES: Readonly<Record<string, string>> = {
  button: 'btn',
  link: 'link',
  textbox: 'inp',
  searchbox: 'inp',
  spinbutton: 'inp',
  checkbox: 'chk',
  menuitemcheckbox: 'chk',
  radio: 'radio',
  menuitemradio: 'radio',
  combobox: 'combo',
  listbox: 'sel',
  option: 'opt',
  menuitem: 'menu',
  tab: 'tab',
  switch: 'sw',
  slider: 'sld',
  treeitem: 'treeitem',
};

/** Input types whose value is free text (setValue writes them through the value setter). */
export const TEXT_INPUT_TYPES = new Set([
  '',
  'text',
  'email',
  'search',
  'tel',
  'url',
  'password',
  'number',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
]);

const BUTTON_INPUT_TYPES = new Set(['button', 'submit', 'reset', 'image']);

/** Code for an `<input>` of the given type (lower-case), undefined for hidden inputs. */
export function inputRoleCode(type: string, hasList: boolean): string | undefined {
  if (type === 'hidden') return undefined;
  if (type === 'checkbox') return 'chk';
  if (type === 'radio') return 'radio';
  if (type === 'range') return 'sld';
  if (type === 'file') return 'file';
  if (BUTTON_INPUT_TYPES.has(type)) return 'btn';
  if (hasList) return 'combo';
  // Unknown types render as text fields in browsers, so they are typed into like one.
  return 'inp';
}

/** First role token we have a code for (`role="switch checkbox"` falls back left to right). */
export function ariaRoleCode(roleAttribute: string): string | undefined {
  for (const token of roleAttribute.trim().toLowerCase().split(/\s+/)) {
    const code = ARIA_ROLE_CODES[token];
    if (code) return code;
  }
  return undefined;
}

/** Roles whose accessible name comes from their content (ARIA "name from content"). */
export const NAME_FROM_CONTENT = new Set([
  'btn',
  'link',
  'tab',
  'opt',
  'menu',
  'sw',
  'treeitem',
  'chk',
  'radio',
]);

/** Roles that carry a value (`v`). */
export const VALUE_ROLES = new Set(['inp', 'txt', 'sel', 'combo', 'sld', 'edit', 'file']);

/** Roles a user types into: setValue targets. */
export const EDITABLE_ROLES = new Set(['inp', 'txt', 'combo', 'edit']);

/** Elements that are interactive by tag alone, even without any attribute. */
const BARE_TAG_CODES: Readonly<Record<string, string>> = {
  BUTTON: 'btn',
  SUMMARY: 'btn',
  TEXTAREA: 'txt',
  SELECT: 'sel',
  INPUT: 'inp',
};

/**
 * The role code of an element, or undefined when it is not interactive. Reads attributes
 * only (no layout, no style), so the walk can call it on every element. `roleAttribute` and
 * `hasAttributes` are passed in by the walk, which has read them already; most elements of a
 * page have no attributes at all, and then the tag alone decides.
 */
export function roleCodeOf(
  el: Element,
  tag: string,
  roleAttribute: string | null = el.getAttribute('role'),
  hasAttributes = true,
): string | undefined {
  if (!hasAttributes) return BARE_TAG_CODES[tag];
  if (roleAttribute) {
    const code = ariaRoleCode(roleAttribute);
    if (code) {
      // A native <option> inside a <select> is represented by the select itself.
      if (code === 'opt' && tag === 'OPTION') return undefined;
      return code;
    }
  }
  switch (tag) {
    case 'A':
      if (el.hasAttribute('href')) return 'link';
      break;
    case 'BUTTON':
    case 'SUMMARY':
      return 'btn';
    case 'INPUT':
      return inputRoleCode(
        (el.getAttribute('type') ?? '').trim().toLowerCase(),
        el.hasAttribute('list'),
      );
    case 'TEXTAREA':
      return 'txt';
    case 'SELECT':
      return 'sel';
    case 'OPTION':
    case 'LABEL':
      return undefined;
  }
  const editable = el.getAttribute('contenteditable');
  if (editable !== null && editable.toLowerCase() !== 'false') {
    // Only the editing host: nested editable descendants are part of the same field.
    const parent = el.parentElement;
    const parentEditable = parent?.closest('[contenteditable]');
    if (!parentEditable || parentEditable.getAttribute('contenteditable') === 'false') {
      return 'edit';
    }
    return undefined;
  }
  if (el.hasAttribute('onclick')) return 'btn';
  const tabindex = el.getAttribute('tabindex');
  // A focusable leaf-ish element without a role is almost always a custom button; big
  // focusable containers are scroll regions or dialogs, not click targets.
  if (tabindex !== null && Number(tabindex) >= 0 && el.childElementCount <= 3) {
    if (el.getAttribute('aria-haspopup') || el.hasAttribute('aria-expanded')) return 'btn';
    if (tag === 'DIV' || tag === 'SPAN' || tag === 'LI' || tag === 'IMG' || tag === 'I')
      return 'btn';
  }
  return undefined;
}
