/**
 * titlegraph example front end: sign in (when built with VITE_OIDC_AUTHORITY), look up a title,
 * order its title document, download the PDF, and see the day's purchases with who made them.
 */
import { forgetSignIn, handleRedirect, signedIn, signIn, signInEnabled, signOut } from './auth';
import { execute, GraphQLRequestError, serviceUrl, setAccessToken } from './client';
import { $, element, showError } from './dom';
import { OrderDocumentMutation, OrderQuoteQuery, TitleLookupQuery } from './operations';
import { showPurchases } from './purchases';
import './style.css';

const FAS = '0877';

const form = $<HTMLFormElement>('#lookup');
const input = $<HTMLInputElement>('#title-number');
const result = $<HTMLElement>('#result');
const order = $<HTMLButtonElement>('#order');
const orderResult = $<HTMLElement>('#order-result');
const quote = $<HTMLElement>('#quote');
const purchases = $<HTMLElement>('#purchases');
const account = $<HTMLElement>('#account');
const signedInAs = $<HTMLElement>('#signed-in-as');
const signInButton = $<HTMLButtonElement>('#sign-in');
const signOutButton = $<HTMLButtonElement>('#sign-out');
const app = $<HTMLElement>('#app');
const signedOut = $<HTMLElement>('#signed-out');
const signInNeeded = $<HTMLElement>('#sign-in-needed');

let current: string | undefined;
const ORDER_LABEL = order.textContent ?? 'Order title document';

/**
 * The price before the click (chargeQuote makes no register call): the list fee, or nothing when
 * the title was bought today on this account; ordering is off when the day's limit has no room.
 */
async function showQuote(titleNumber: string): Promise<boolean> {
  const { chargeQuote } = await execute(OrderQuoteQuery, { fas: FAS, titleNumber });
  const free = chargeQuote.lines.every((line) => line.alreadyChargedToday);
  const price = free ? 'already bought today: no charge' : `£${chargeQuote.expectedTotal} + VAT`;
  quote.textContent = chargeQuote.withinLimits
    ? `Title document: ${price}.`
    : `Title document: ${price}, but today's spending limit has no room for it: ordering is off until midnight (London time).`;
  return chargeQuote.withinLimits;
}

/** The register's day of issue in UK form (25/11/2026): expiresAt is the midnight that ends it. */
const ukDayEndingAt = (expiresAt: string) => new Date(Date.parse(expiresAt) - 1).toLocaleDateString('en-GB', { timeZone: 'Europe/London' });

/** With sign-in: who is signed in, or the offer to sign in (the rest of the page needs it). */
function showAccount(person: string | undefined, why?: string) {
  account.hidden = false;
  signedInAs.textContent = person ? `Signed in as ${person}` : '';
  signInButton.hidden = !!person;
  signOutButton.hidden = !person;
  app.hidden = !person;
  signedOut.hidden = !!person;
  if (why) signInNeeded.textContent = why;
}

/** An error for `target`; with sign-in, a refused token (expired, revoked) signs the person out here. */
async function failed(target: HTMLElement, error: unknown) {
  if (signInEnabled && error instanceof GraphQLRequestError && error.status === 401) {
    await forgetSignIn();
    setAccessToken(undefined);
    showAccount(undefined, `Your sign-in was not accepted (${error.message}): sign in again.`);
    return;
  }
  showError(target, error);
}

const refreshPurchases = () => showPurchases(purchases).catch((error) => failed(purchases, error));

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const titleNumber = input.value.trim().toUpperCase();
  current = undefined;
  order.disabled = true;
  order.textContent = ORDER_LABEL;
  orderResult.replaceChildren();
  quote.textContent = '';
  result.replaceChildren(element('p', 'Looking up…', 'muted'));
  try {
    const { title } = await execute(TitleLookupQuery, { titleNumber });
    if (!title) {
      result.replaceChildren(element('p', `No title ${titleNumber} in the register.`, 'error'));
      return;
    }
    const card = element('article');
    card.dataset.testid = 'title';
    const heading = element('h2', title.titleNumber);
    heading.append(' ', element('span', title.status, `status status-${title.status.toLowerCase()}`));
    card.append(heading);
    if (title.right?.description) card.append(element('p', title.right.description));
    const addresses = element('ul');
    addresses.className = 'addresses';
    for (const a of title.right?.addresses ?? []) {
      addresses.append(element('li', [a.street, a.town, a.postcode].filter(Boolean).join(', ')));
    }
    card.append(element('h3', 'Addresses'), addresses);
    const plans = element('ul');
    plans.className = 'plans';
    for (const p of title.plans) {
      plans.append(element('li', `${p.description ?? 'Plan'}${p.paperSize ? ` (A${p.paperSize})` : ''}`));
    }
    if (title.plans.length === 0) plans.append(element('li', 'No plans', 'muted'));
    card.append(element('h3', 'Plans'), plans);
    result.replaceChildren(card);
    if (title.status !== 'REGISTERED') {
      // the register issues title documents for registered titles only
      order.textContent = `Title documents are for registered titles only (${title.titleNumber} is ${title.status.toLowerCase()})`;
      return;
    }
    current = title.titleNumber;
    order.textContent = `Order title document for ${current} (FAS ${FAS})`;
    order.disabled = !(await showQuote(current));
  } catch (error) {
    await failed(result, error);
  }
});

order.addEventListener('click', async () => {
  if (!current) return;
  order.disabled = true;
  orderResult.replaceChildren(element('p', 'Ordering…', 'muted'));
  try {
    const { orderTitleDocument } = await execute(OrderDocumentMutation, {
      fas: FAS,
      input: { titleNumber: current, titleSheet: { include: true }, idempotencyKey: crypto.randomUUID() },
    });
    const problem = orderTitleDocument.userErrors[0];
    if (problem || !orderTitleDocument.document) {
      orderResult.replaceChildren(element('p', problem ? `${problem.code}: ${problem.message}` : 'No document', 'error'));
      order.disabled = !(await showQuote(current));
      return;
    }
    const { document: doc, charges } = orderTitleDocument;
    const link = element('a', `Download ${doc.titleNumber} title document (PDF)`);
    // A signed link works as a plain link, with no Authorization header. Its path and query go to
    // the service this page talks to (its own proxy when same-origin), not to the address the
    // service saw, which behind the page's proxy is one the browser cannot reach.
    const signed = new URL(doc.downloadUrl);
    link.href = `${serviceUrl}${signed.pathname}${signed.search}`;
    link.id = 'download';
    link.target = '_blank';
    link.rel = 'noopener';
    const charged = charges.map((c) => `${c.productType ?? 'charge'} £${c.fee}`).join(', ') || 'nothing (already charged today)';
    orderResult.replaceChildren(
      link,
      element(
        'p',
        `Charged: ${charged}. The link works for 15 minutes; the document until the end of ${ukDayEndingAt(doc.expiresAt)} (midnight, London time).`,
        'muted',
      ),
    );
    // what ordering again today would charge now, and the order in the day's list
    order.disabled = !(await showQuote(doc.titleNumber));
    await refreshPurchases();
  } catch (error) {
    await failed(orderResult, error);
    order.disabled = !current;
  }
});

signInButton.addEventListener('click', () => {
  signInButton.disabled = true;
  signIn().catch((error: Error) => {
    signInButton.disabled = false;
    showAccount(undefined, `Could not reach the sign-in service: ${error.message}`);
  });
});

signOutButton.addEventListener('click', () => {
  signOutButton.disabled = true;
  signOut().catch(() => {
    // the provider is away: at least forget the tokens here
    setAccessToken(undefined);
    showAccount(undefined);
    signOutButton.disabled = false;
  });
});

async function start() {
  if (signInEnabled) {
    app.hidden = true;
    let problem: string | undefined;
    try {
      await handleRedirect();
    } catch (error) {
      problem = `Sign-in did not complete: ${(error as Error).message}`;
    }
    const user = await signedIn();
    setAccessToken(user?.access_token);
    showAccount(user && String(user.profile.name ?? user.profile.email ?? user.profile.sub), problem);
    if (!user) return;
  }
  await refreshPurchases();
}

void start();
