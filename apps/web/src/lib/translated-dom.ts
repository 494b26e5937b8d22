/**
 * Page translation (Chrome's, an extension's) puts a translated copy of each text React rendered in
 * <font> elements, in its place or around it. React's next change beside such a text (a button's
 * spinner, a refusal, the next step of a form) then inserts before, or removes, a node that is no
 * longer its parent's child, and the DOM throws: the page fell to the error screen at the first
 * refusal, for every family reading it in a language the portal does not bundle (react#11538). Such a
 * call is done as the DOM now is: before the child of the parent that holds the node, or by the node's
 * own parent; a node translation already took out needs no removing.
 */
export function tolerateTranslatedText(proto: Node = Node.prototype): void {
  const { insertBefore, removeChild } = proto;
  proto.insertBefore = function <T extends Node>(this: Node, node: T, reference: Node | null): T {
    let before = reference;
    while (before && before.parentNode !== this) before = before.parentNode;
    return insertBefore.call(this, node, before) as T;
  };
  proto.removeChild = function <T extends Node>(this: Node, child: T): T {
    if (child.parentNode === this) return removeChild.call(this, child) as T;
    child.parentNode?.removeChild(child);
    return child;
  };
}
