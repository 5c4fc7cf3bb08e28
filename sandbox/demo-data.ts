/**
 * Deterministic demo data: three Polish bicycle repair shops with clients, bikes, repairs and
 * logs, generated from a seed per shop so every start (and every test) sees the same records.
 * DEMO_TENANTS and DEMO_KEY_SPECS are written with kebab slugs; demoData restyles them.
 */
import { TENANT_RESOURCES, type Scope } from '../api/contract/index.js';
import type { SlugStyle } from '../api/contract/readings.js';
import { styleDemoSlug } from './dialect/index.js';
import type { KeySpec, SandboxData, TenantData, TenantInfo } from './model.js';

type Random = () => number;

/** A small seeded PRNG (mulberry32), so every start shows the same shops and repairs. */
function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit seed from text (FNV-1a), so each tenant gets its own sequence. */
function seedFrom(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export const DEMO_TENANTS: readonly TenantInfo[] = [
  { slug: 'rowery-nowak', name: 'Rowery Nowak s.c.', city: 'Kraków' },
  { slug: 'serwis-kowalski', name: 'Serwis Rowerowy Kowalski', city: 'Warszawa' },
  { slug: 'cykl-gdansk', name: 'Cykl Gdańsk sp. z o.o.', city: 'Gdańsk' },
];

const FIRST_NAMES = 'Anna Piotr Katarzyna Tomasz Magdalena Krzysztof Agnieszka Marcin Joanna Paweł Ewa Michał'.split(' ');
const FAMILY = 'Wiśniewski Wójcik Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski Kozłowski Jankowski Mazur Krawczyk'.split(' ');
const CITIES = ['Kraków', 'Warszawa', 'Gdańsk', 'Gdynia', 'Sopot', 'Wieliczka', 'Piaseczno', 'Pruszków', 'Skawina'];
const BIKES: readonly (readonly [string, string, string])[] = [
  ['Kross', 'Level 5.0', 'MTB'],
  ['Kross', 'Trans 4.0', 'trekkingowy'],
  ['Romet', 'Wagant 3', 'trekkingowy'],
  ['Romet', 'Orkan 2 M', 'miejski'],
  ['Trek', 'Marlin 7', 'MTB'],
  ['Trek', 'FX 3 Disc', 'fitness'],
  ['Giant', 'Talon 2', 'MTB'],
  ['Giant', 'Escape 1', 'fitness'],
  ['Merida', 'Scultura 400', 'szosowy'],
  ['Merida', 'Big.Nine 300', 'MTB'],
  ['Orbea', 'Orca M30', 'szosowy'],
  ['Orbea', 'Vector 20', 'miejski'],
];
const COLORS = ['czarny', 'grafitowy', 'czerwony', 'niebieski', 'zielony', 'biały', 'srebrny'];
export const REPAIR_STATES = ['przyjęta', 'w_naprawie', 'oczekuje_na_części', 'gotowa', 'wydana'] as const;
const REPAIR_JOBS: readonly (readonly [string, number])[] = [
  ['Przegląd okresowy', 120],
  ['Wymiana łańcucha i kasety', 280],
  ['Centrowanie koła tylnego', 60],
  ['Regulacja przerzutek', 50],
  ['Odpowietrzenie hamulców hydraulicznych', 150],
  ['Wymiana klocków hamulcowych', 90],
  ['Serwis amortyzatora', 320],
  ['Wymiana dętki i opony', 110],
  ['Wymiana suportu', 180],
];
const LOG_TEMPLATES = [
  (r: string) => `Przyjęto zlecenie ${r}`,
  (r: string) => `Zamówiono części do zlecenia ${r}`,
  (r: string) => `Zlecenie ${r} gotowe do odbioru`,
  (r: string) => `Wysłano SMS do klienta w sprawie ${r}`,
  (r: string) => `Wydano rower ze zlecenia ${r}`,
];

const BASE_TIME = Date.UTC(2026, 0, 5, 8, 0, 0);
const HOUR = 3_600_000;

function pad(n: number): string {
  return String(n).padStart(3, '0');
}

function phone(random: Random): string {
  const digits = Array.from({ length: 8 }, () => intBetween(random, 0, 9)).join('');
  return `+48 ${pick(random, ['5', '6', '7', '8'])}${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5)}`;
}

function asciiFold(text: string): string {
  const bare = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return bare.replace(/[łŁ]/g, 'l').toLowerCase();
}

function clients(random: Random, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const firstName = pick(random, FIRST_NAMES);
    const lastName = pick(random, FAMILY);
    return {
      id: `kl-${pad(i + 1)}`,
      firstName,
      lastName,
      phone: phone(random),
      email: `${asciiFold(firstName)}.${asciiFold(lastName)}@example.pl`,
      city: pick(random, CITIES),
    };
  });
}

function bikes(random: Random, count: number, clientCount: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const [brand, model, type] = pick(random, BIKES);
    return {
      id: `rw-${pad(i + 1)}`,
      clientId: `kl-${pad((i % clientCount) + 1)}`,
      brand,
      model,
      type,
      color: pick(random, COLORS),
      year: intBetween(random, 2015, 2025),
      frameNumber: `WSM${intBetween(random, 100000, 999999)}`,
    };
  });
}

function repairs(random: Random, count: number, bikeList: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const bike = bikeList[i % bikeList.length] ?? {};
    const [description, base] = pick(random, REPAIR_JOBS);
    const receivedAt = BASE_TIME + i * 26 * HOUR;
    return {
      id: `zl-${pad(i + 1)}`,
      bikeId: bike['id'],
      clientId: bike['clientId'],
      state: REPAIR_STATES[i % REPAIR_STATES.length],
      description,
      costPln: base + intBetween(random, 0, 8) * 10,
      currency: 'PLN',
      receivedAt: new Date(receivedAt).toISOString(),
      updatedAt: new Date(receivedAt + intBetween(random, 1, 48) * HOUR).toISOString(),
    };
  });
}

function logs(random: Random, repairList: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return repairList
    .flatMap((repair, i) => {
      const at = Date.parse(String(repair['receivedAt']));
      const steps = 1 + (i % 3);
      return Array.from({ length: steps }, (_, step) => ({
        at: new Date(at + step * intBetween(random, 1, 20) * HOUR).toISOString(),
        level: step === 1 && i % 4 === 0 ? 'warn' : 'info',
        repairId: repair['id'],
        message: (LOG_TEMPLATES[(i + step) % LOG_TEMPLATES.length] ?? LOG_TEMPLATES[0]!)(String(repair['id'])),
      }));
    })
    .map((entry, i) => ({ id: `lg-${pad(i + 1)}`, ...entry }));
}

/** Records of a resource the demo has no hand-written generator for: a few numbered entries, seeded by its name. */
function genericRecords(seedSlug: string, resource: string): Record<string, unknown>[] {
  const random = seededRandom(seedFrom(`${seedSlug}/${resource}`));
  return Array.from({ length: intBetween(random, 3, 6) }, (_, i) => ({
    id: `${resource.slice(0, 2)}-${pad(i + 1)}`,
    createdAt: new Date(BASE_TIME + i * 26 * HOUR).toISOString(),
  }));
}

/** `seedSlug` keeps the records the same whatever style the slug is written in. */
function demoTenant(info: TenantInfo, seedSlug = info.slug): TenantData {
  const random = seededRandom(seedFrom(seedSlug));
  const clientList = clients(random, 6);
  const bikeList = bikes(random, 8, clientList.length);
  const repairList = repairs(random, 7, bikeList);
  const known: Readonly<Record<string, readonly unknown[]>> = {
    clients: clientList,
    bikes: bikeList,
    repairs: repairList,
    logs: logs(random, repairList),
  };
  const records = Object.fromEntries(TENANT_RESOURCES.map((r) => [r, known[r] ?? genericRecords(seedSlug, r)]));
  return { info, records: records as TenantData['records'] };
}

const ALL_TENANT_SCOPES: readonly Scope[] = [...TENANT_RESOURCES];
const PLATFORM_SCOPES: readonly Scope[] = ['platform', ...TENANT_RESOURCES];
const NO_LOGS = ALL_TENANT_SCOPES.filter((s) => s !== 'logs');

/** The fixed demo key aliases other tools and tests refer to. */
export const DEMO_KEY_SPECS: readonly KeySpec[] = [
  { alias: 'platform-test', kind: 'platform', environment: 'test', scopes: PLATFORM_SCOPES, revoked: false },
  { alias: 'platform-prod', kind: 'platform', environment: 'production', scopes: PLATFORM_SCOPES, revoked: false },
  { alias: 'nowak-test', kind: 'tenant', tenant: 'rowery-nowak', environment: 'test', scopes: ALL_TENANT_SCOPES, revoked: false },
  { alias: 'nowak-prod', kind: 'tenant', tenant: 'rowery-nowak', environment: 'production', scopes: ALL_TENANT_SCOPES, revoked: false },
  { alias: 'kowalski-test', kind: 'tenant', tenant: 'serwis-kowalski', environment: 'test', scopes: ALL_TENANT_SCOPES, revoked: false },
  { alias: 'gdansk-test', kind: 'tenant', tenant: 'cykl-gdansk', environment: 'test', scopes: ALL_TENANT_SCOPES, revoked: false },
  { alias: 'nowak-nologs-test', kind: 'tenant', tenant: 'rowery-nowak', environment: 'test', scopes: NO_LOGS, revoked: false },
  { alias: 'nowak-revoked-test', kind: 'tenant', tenant: 'rowery-nowak', environment: 'test', scopes: ALL_TENANT_SCOPES, revoked: true },
];

/** The demo shops and keys with slugs in the dialect's style (the records do not change). */
export function demoData(style: SlugStyle = 'kebab'): SandboxData {
  return {
    tenants: DEMO_TENANTS.map((info) => demoTenant({ ...info, slug: styleDemoSlug(info.slug, style) }, info.slug)),
    keys: DEMO_KEY_SPECS.map((spec) => (spec.tenant === undefined ? spec : { ...spec, tenant: styleDemoSlug(spec.tenant, style) })),
  };
}
