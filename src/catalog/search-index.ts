/**
 * The catalog's ranking: BM25F over each tool's name, its server's name, its description, and its
 * parameters' names and descriptions, each field weighted. Built once per listing (linear in the text read,
 * which tokens.ts bounds per field); a query touches only the postings of its own words, so a search over
 * 10,000 tools takes well under a millisecond or two. Results are deterministic: equal scores are ordered by
 * ref. The last query word also matches as a prefix (`repo` finds `repository`), through a sorted word list
 * and at most `PREFIX_EXPANSION` words.
 */
import { words } from './tokens.js';

/** What is indexed of one tool. */
export interface SearchDocument {
  /** `server.tool`, the result's identity and the tie-break. */
  readonly ref: string;
  readonly server: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** Each parameter's name and description, from the top level of `inputSchema.properties`. */
  readonly parameters?: readonly { readonly name: string; readonly description?: string | undefined }[];
}

/** One match of the index: the ref and its score. */
export interface IndexHit {
  readonly ref: string;
  /** The BM25F score, rounded to 4 decimals so equal ranks compare equal across runs. */
  readonly score: number;
}

/** How much a word counts in each field (BM25F weights): a name match says more than a description's. */
const WEIGHTS = {
  name: 4,
  title: 3,
  server: 1.5,
  description: 1,
  parameter: 1.5,
  parameterText: 0.5,
} as const;
/** BM25's term-frequency saturation and length normalization. */
const K1 = 1.2;
const B = 0.75;
/** At most this many indexed words match the query's last word as a prefix. */
const PREFIX_EXPANSION = 64;
/** A prefix shorter than this matches only whole words (`a` would match half the vocabulary). */
const MIN_PREFIX = 3;
/** Query words past this many are ignored: a pasted paragraph should not cost a scan of every posting. */
const MAX_QUERY_WORDS = 32;
/** Parameters indexed per tool: the top level of a schema can be huge in a hostile listing. */
const MAX_PARAMETERS = 64;

export class SearchIndex {
  readonly #refs: string[] = [];
  readonly #servers: string[] = [];
  /** Per word: the documents that hold it and its weighted frequency in each. */
  readonly #postings = new Map<string, { docs: number[]; freqs: number[] }>();
  /** Per document: its weighted length. */
  readonly #lengths: number[] = [];
  #averageLength = 0;
  /** Every indexed word, sorted, for prefix matching. */
  #vocabulary: string[] = [];

  constructor(documents: Iterable<SearchDocument>) {
    for (const doc of documents) this.#add(doc);
    const total = this.#lengths.reduce((sum, n) => sum + n, 0);
    this.#averageLength = this.#lengths.length === 0 ? 0 : total / this.#lengths.length;
    this.#vocabulary = [...this.#postings.keys()].sort();
  }

  get size(): number {
    return this.#refs.length;
  }

  #add(doc: SearchDocument): void {
    const id = this.#refs.length;
    this.#refs.push(doc.ref);
    this.#servers.push(doc.server);
    const counts = new Map<string, number>();
    let length = 0;
    const count = (text: string | undefined, weight: number) => {
      if (text === undefined) return;
      for (const word of words(text)) {
        counts.set(word, (counts.get(word) ?? 0) + weight);
        length += weight;
      }
    };
    count(doc.name, WEIGHTS.name);
    count(doc.title, WEIGHTS.title);
    count(doc.server, WEIGHTS.server);
    count(doc.description, WEIGHTS.description);
    for (const parameter of (doc.parameters ?? []).slice(0, MAX_PARAMETERS)) {
      count(parameter.name, WEIGHTS.parameter);
      count(parameter.description, WEIGHTS.parameterText);
    }
    for (const [word, freq] of counts) {
      let posting = this.#postings.get(word);
      if (posting === undefined) {
        posting = { docs: [], freqs: [] };
        this.#postings.set(word, posting);
      }
      posting.docs.push(id);
      posting.freqs.push(freq);
    }
    this.#lengths.push(length);
  }

  /**
   * The `limit` best matches of `query`, best first (of the tools of `servers` only, when given); an empty
   * or wordless query matches nothing.
   */
  search(query: string, limit: number, servers?: ReadonlySet<string>): IndexHit[] {
    const terms = [...new Set(words(query))].slice(0, MAX_QUERY_WORDS);
    if (terms.length === 0 || limit <= 0 || this.#refs.length === 0) return [];
    const scores = new Float64Array(this.#refs.length);
    const touched: number[] = [];
    const n = this.#refs.length;
    const addTerm = (word: string, boost: number) => {
      const posting = this.#postings.get(word);
      if (posting === undefined) return;
      const idf = Math.log(1 + (n - posting.docs.length + 0.5) / (posting.docs.length + 0.5));
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i] as number;
        if (servers !== undefined && !servers.has(this.#servers[doc] as string)) continue;
        const tf = posting.freqs[i] as number;
        const norm = tf + K1 * (1 - B + (B * (this.#lengths[doc] as number)) / (this.#averageLength || 1));
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + boost * idf * ((tf * (K1 + 1)) / norm);
      }
    };
    terms.forEach((term, index) => {
      addTerm(term, 1);
      // The last word may be unfinished: it also matches longer words that start with it, at half weight.
      if (index === terms.length - 1 && term.length >= MIN_PREFIX) {
        for (const word of this.#wordsStartingWith(term)) if (word !== term) addTerm(word, 0.5);
      }
    });
    return best(
      touched.map((doc) => ({
        ref: this.#refs[doc] as string,
        score: Math.round((scores[doc] as number) * 10_000) / 10_000,
      })),
      limit,
    );
  }

  /** Indexed words that start with `prefix`, at most `PREFIX_EXPANSION`, by binary search. */
  #wordsStartingWith(prefix: string): string[] {
    const vocabulary = this.#vocabulary;
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((vocabulary[mid] as string) < prefix) low = mid + 1;
      else high = mid;
    }
    const out: string[] = [];
    for (let i = low; i < vocabulary.length && out.length < PREFIX_EXPANSION; i++) {
      const word = vocabulary[i] as string;
      if (!word.startsWith(prefix)) break;
      out.push(word);
    }
    return out;
  }
}

function ranked(a: IndexHit, b: IndexHit): number {
  return b.score - a.score || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0);
}

/**
 * The `limit` best hits, best first. A common word touches every tool: sorting 10,000 hits to keep 10 costs
 * tens of milliseconds, so a small limit keeps a sorted list of the best so far instead (n × limit steps).
 */
function best(hits: IndexHit[], limit: number): IndexHit[] {
  if (limit * 8 >= hits.length) return hits.sort(ranked).slice(0, limit);
  const top: IndexHit[] = [];
  for (const hit of hits) {
    if (top.length === limit && ranked(hit, top[limit - 1] as IndexHit) >= 0) continue;
    let i = top.length === limit ? limit - 1 : top.length;
    while (i > 0 && ranked(hit, top[i - 1] as IndexHit) < 0) {
      top[i] = top[i - 1] as IndexHit;
      i--;
    }
    top[i] = hit;
  }
  return top;
}
