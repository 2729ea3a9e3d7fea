package io.kgrag.core.text;

import io.kgrag.core.graph.StableIds;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a document into chunks of whole sentences: sentences found by {@link BreakIterator} (English
 * rules) are packed into chunks of at most {@code size} characters, and each chunk after the first repeats
 * the previous chunk's trailing whole sentences that fit in {@code overlap} characters (so a fact spanning a
 * boundary is read whole at least once). A sentence longer than {@code size} is split at word boundaries
 * (at a hard cut only when one word is longer). Chunks never start or end with whitespace.
 */
public final class Chunker implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  public static final int DEFAULT_SIZE = 1200;
  public static final int DEFAULT_OVERLAP = 200;

  /** Smallest chunk size accepted: smaller chunks cut most sentences apart. */
  public static final int MIN_SIZE = 50;

  private final int size;
  private final int overlap;

  /**
   * @throws IllegalArgumentException unless {@code MIN_SIZE <= size} and {@code 0 <= overlap < size}
   */
  public Chunker(int size, int overlap) {
    if (size < MIN_SIZE) {
      throw new IllegalArgumentException("chunk size " + size + " is below " + MIN_SIZE + " characters");
    }
    if (overlap < 0 || overlap >= size) {
      throw new IllegalArgumentException("chunk overlap " + overlap + " must be at least 0 and below the chunk size " + size);
    }
    this.size = size;
    this.overlap = overlap;
  }

  public Chunker() {
    this(DEFAULT_SIZE, DEFAULT_OVERLAP);
  }

  /** The stable id of chunk {@code seq} of document {@code docId}. */
  public static long chunkId(String docId, int seq) {
    return StableIds.contentId("chunk", docId + "#" + seq);
  }

  /** The chunks of {@code doc}, in order. */
  public List<Chunk> chunks(Document doc) {
    String text = doc.text();
    List<int[]> units = units(text);
    List<Chunk> out = new ArrayList<>();
    int n = units.size();
    int i = 0;
    while (i < n) {
      int start = units.get(i)[0];
      int j = i;
      while (j + 1 < n && units.get(j + 1)[1] - start <= size) {
        j++;
      }
      int end = units.get(j)[1];
      int seq = out.size();
      out.add(new Chunk(chunkId(doc.docId(), seq), doc.docId(), seq, start, end, text.substring(start, end)));
      if (j == n - 1) {
        break;
      }
      // the next chunk starts with the trailing sentences of this one that fit in the overlap
      int k = j + 1;
      int nextEnd = units.get(j + 1)[1];
      while (k - 1 > i && end - units.get(k - 1)[0] <= overlap && nextEnd - units.get(k - 1)[0] <= size) {
        k--;
      }
      i = k;
    }
    return out;
  }

  /** Sentence spans without surrounding whitespace, the longer ones split to at most {@code size}. */
  List<int[]> units(String text) {
    List<int[]> out = new ArrayList<>();
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
    it.setText(text);
    int s = it.first();
    for (int e = it.next(); e != BreakIterator.DONE; s = e, e = it.next()) {
      int a = s;
      int b = e;
      while (a < b && Character.isWhitespace(text.charAt(a))) {
        a++;
      }
      while (b > a && Character.isWhitespace(text.charAt(b - 1))) {
        b--;
      }
      if (a == b) {
        continue;
      }
      if (b - a <= size) {
        out.add(new int[] {a, b});
      } else {
        splitLong(text, a, b, out);
      }
    }
    return out;
  }

  /** Splits {@code [a, b)} into pieces of at most {@code size} at the last whitespace that fits. */
  private void splitLong(String text, int a, int b, List<int[]> out) {
    int p = a;
    while (p < b) {
      if (b - p <= size) {
        out.add(new int[] {p, b});
        return;
      }
      int limit = p + size; // the piece is [p, cut) with cut <= limit
      int cut = -1;
      for (int c = limit; c > p; c--) {
        if (Character.isWhitespace(text.charAt(c))) {
          cut = c;
          break;
        }
      }
      if (cut < 0) {
        cut = limit;
        if (Character.isLowSurrogate(text.charAt(cut)) && cut - 1 > p) {
          cut--; // never split a surrogate pair
        }
      }
      int pe = cut;
      while (pe > p && Character.isWhitespace(text.charAt(pe - 1))) {
        pe--;
      }
      out.add(new int[] {p, pe});
      p = cut;
      while (p < b && Character.isWhitespace(text.charAt(p))) {
        p++;
      }
    }
  }
}
