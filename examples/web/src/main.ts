/** titlegraph example front end: look up a title, order its title document, download the PDF. */
import { execute, GraphQLRequestError, serviceUrl } from './client';
import { OrderDocumentMutation, OrderQuoteQuery, TitleLookupQuery } from './operations';
import './style.css';

const FAS = '0877';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const form = $<HTMLFormElement>('#lookup');
const input = $<HTMLInputElement>('#title-number');
const result = $<HTMLElement>('#result');
const order = $<HTMLButtonElement>('#order');
const orderResult = $<HTMLElement>('#order-result');
const quote = $<HTMLElement>('#quote');

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

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (className) el.className = className;
  return el;
}

function showError(target: HTMLElement, error: unknown) {
  const message =
    error instanceof GraphQLRequestError
      ? `${error.code ? `${error.code}: ` : ''}${error.message}`
      : 'The service did not answer: is `npm start` running?';
  target.replaceChildren(element('p', message, 'error'));
}

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
    showError(result, error);
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
    // what ordering again today would charge now
    order.disabled = !(await showQuote(doc.titleNumber));
  } catch (error) {
    showError(orderResult, error);
    order.disabled = !current;
  }
});
