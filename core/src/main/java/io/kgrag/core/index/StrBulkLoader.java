package io.kgrag.core.index;

import java.util.Arrays;

/**
 * Sort-Tile-Recursive bulk loading (Leutenegger, Lopez, Edgington, ICDE 1997), key-first.
 *
 * <p>The tree is built bottom-up, one level at a time. At each level the items (entries at the leaf
 * level, nodes above) are grouped into nodes of between {@code m} and {@code M} items:
 *
 * <ol>
 *   <li>With {@link BulkLoadOrder#KEY_FIRST} the items are sorted by key (a node by its key range) and cut
 *       into <em>segments</em>: maximal runs of items that all carry one and the same single key. With
 *       {@link BulkLoadOrder#SPATIAL} the whole level is one segment.
 *   <li>A segment of at least {@code M} items is tiled spatially by STR into {@code P = ceil(len / M)}
 *       groups of {@code floor} or {@code ceil(len / P)} items (so between M/2 and M): sort by the centre
 *       coordinate along one axis, cut into {@code S = ceil(P^(1/r))} slabs ({@code r} = axes not yet cut
 *       on this branch), recurse in each slab along the next axis. Variant: the next axis is the unused
 *       one with the largest spread of centres, not a fixed order, so in 16 dimensions (where only a few
 *       axes get cut) the cuts go where the data varies.
 *   <li>Shorter segments are packed together in key order, so a node holding several keys covers a short,
 *       contiguous key range; a leftover shorter than {@code m} is merged into a neighbouring group (split
 *       in two halves if the union exceeds M).
 * </ol>
 *
 * <p>Every node but the root thus holds between {@code m} and {@code M} items when {@code m <= M/2}. The
 * groups of one level come out in key order, so the next level needs no re-sorting beyond a stable pass.
 */
final class StrBulkLoader {

  private StrBulkLoader() {}

  /** Builds the node structure over entries {@code 0..n-1}; returns the root. */
  static Node load(
      int d, int maxEntries, int minEntries, BulkLoadOrder order,
      long[] keys, float[] points, long[] ids, int n) {
    int cap = maxEntries + 1;
    if (n == 0) {
      return Node.newLeaf(d, cap);
    }
    boolean keyFirst = order == BulkLoadOrder.KEY_FIRST;
    Partition p = partition(n, d, points, keys, keys, maxEntries, minEntries, keyFirst);
    Node[] level = new Node[p.count];
    int start = 0;
    for (int c = 0; c < p.count; c++) {
      Node leaf = Node.newLeaf(d, cap);
      for (int pos = start; pos < p.ends[c]; pos++) {
        int e = p.perm[pos];
        leaf.addEntry(keys[e], points, e * d, ids[e]);
      }
      leaf.recomputeBounds();
      level[c] = leaf;
      start = p.ends[c];
    }
    while (level.length > 1) {
      int cnt = level.length;
      float[] centers = new float[cnt * d];
      long[] minK = new long[cnt];
      long[] maxK = new long[cnt];
      for (int j = 0; j < cnt; j++) {
        Node nd = level[j];
        minK[j] = nd.minKey;
        maxK[j] = nd.maxKey;
        for (int i = 0; i < d; i++) {
          centers[j * d + i] = (float) (((double) nd.low[i] + nd.high[i]) * 0.5);
        }
      }
      p = partition(cnt, d, centers, minK, maxK, maxEntries, minEntries, keyFirst);
      if (p.count >= cnt) { // cannot happen for maxEntries >= 2; guard against an endless loop
        throw new IllegalStateException("bulk load did not shrink a level of " + cnt + " nodes");
      }
      Node[] parents = new Node[p.count];
      start = 0;
      for (int c = 0; c < p.count; c++) {
        Node parent = Node.newInternal(d, level[0].level + 1, cap);
        for (int pos = start; pos < p.ends[c]; pos++) {
          parent.addChild(level[p.perm[pos]]);
        }
        parent.recomputeBounds();
        parents[c] = parent;
        start = p.ends[c];
      }
      level = parents;
    }
    return level[0];
  }

  /** An order of the items and the end positions (exclusive) of the groups in that order. */
  static final class Partition {
    final int[] perm;
    final int[] ends;
    final int count;

    Partition(int[] perm, int[] ends, int count) {
      this.perm = perm;
      this.ends = ends;
      this.count = count;
    }
  }

  /**
   * Groups items {@code 0..n-1} (centre {@code centers[j*d..]}, key range {@code [minK[j], maxK[j]]}) into
   * contiguous runs of an order, as described in the class comment.
   */
  static Partition partition(
      int n, int d, float[] centers, long[] minK, long[] maxK, int maxEntries, int minEntries,
      boolean keyFirst) {
    int[] perm = new int[n];
    for (int j = 0; j < n; j++) {
      perm[j] = j;
    }
    if (keyFirst) {
      IntSort.sort(perm, 0, n, (a, b) -> {
        int c = Long.compare(minK[a], minK[b]);
        return c != 0 ? c : Long.compare(maxK[a], maxK[b]);
      });
    }
    int[] ends = new int[16];
    int count = 0;
    int pendingStart = 0;
    int pendingLen = 0;
    int s = 0;
    while (s < n) {
      int e;
      if (!keyFirst) {
        e = n;
      } else {
        e = s + 1;
        long k = minK[perm[s]];
        if (k == maxK[perm[s]]) {
          while (e < n && minK[perm[e]] == k && maxK[perm[e]] == k) {
            e++;
          }
        }
      }
      int len = e - s;
      if (len >= maxEntries) {
        int tiles = (len + maxEntries - 1) / maxEntries;
        tile(perm, s, len, tiles, centers, d);
        if (pendingLen > 0) {
          if (pendingLen >= minEntries) {
            ends = push(ends, count++, s);
          } else {
            // Too few for a node of their own: share the first tile's node (or two, if too many).
            int total = s + cut(len, 1, tiles) - pendingStart;
            if (total > maxEntries) {
              ends = push(ends, count++, pendingStart + total / 2);
            }
          }
          pendingLen = 0;
        }
        for (int g = 1; g <= tiles; g++) {
          ends = push(ends, count++, s + cut(len, g, tiles));
        }
      } else {
        if (pendingLen == 0) {
          pendingStart = s;
        }
        if (pendingLen + len <= maxEntries) {
          pendingLen += len;
        } else if (pendingLen >= minEntries) {
          ends = push(ends, count++, s);
          pendingStart = s;
          pendingLen = len;
        } else {
          int total = pendingLen + len;
          ends = push(ends, count++, pendingStart + total / 2);
          ends = push(ends, count++, e);
          pendingLen = 0;
        }
      }
      s = e;
    }
    if (pendingLen > 0) {
      if (pendingLen >= minEntries || count == 0) {
        ends = push(ends, count++, n);
      } else {
        // Merge the short tail into the last group (two halves if the union is too large).
        int lastStart = count >= 2 ? ends[count - 2] : 0;
        count--;
        int total = n - lastStart;
        if (total > maxEntries) {
          ends = push(ends, count++, lastStart + total / 2);
        }
        ends = push(ends, count++, n);
      }
    }
    return new Partition(perm, ends, count);
  }

  private static int[] push(int[] a, int at, int v) {
    if (at == a.length) {
      a = Arrays.copyOf(a, a.length * 2);
    }
    a[at] = v;
    return a;
  }

  /** Start offset of group {@code g} of {@code groups} equal groups over {@code len} items. */
  private static int cut(int len, int g, int groups) {
    return (int) ((long) len * g / groups);
  }

  /**
   * Reorders {@code perm[s, s+len)} so that the {@code groups} consecutive runs
   * {@code [cut(g), cut(g+1))} are STR tiles.
   */
  static void tile(int[] perm, int s, int len, int groups, float[] centers, int d) {
    long[] scratch = new long[len];
    tileRec(perm, s, len, groups, 0, groups, centers, d, new boolean[d], d, scratch);
  }

  private static void tileRec(
      int[] perm, int s, int len, int groups, int g0, int g1, float[] centers, int d,
      boolean[] used, int unused, long[] scratch) {
    int ng = g1 - g0;
    if (ng <= 1) {
      return;
    }
    int from = s + cut(len, g0, groups);
    int to = s + cut(len, g1, groups);
    if (unused == 0) { // every axis cut on this branch: start over
      used = new boolean[d];
      unused = d;
    }
    // The unused axis with the largest spread of centres.
    int axis = -1;
    double bestSpread = -1;
    for (int i = 0; i < d; i++) {
      if (used[i]) {
        continue;
      }
      float mn = Float.POSITIVE_INFINITY;
      float mx = Float.NEGATIVE_INFINITY;
      for (int pos = from; pos < to; pos++) {
        float v = centers[perm[pos] * d + i];
        if (v < mn) {
          mn = v;
        }
        if (v > mx) {
          mx = v;
        }
      }
      double spread = (double) mx - mn;
      if (spread > bestSpread) {
        bestSpread = spread;
        axis = i;
      }
    }
    // Sort the range by centre along the axis (packed sortable longs: no boxing, ties by item index).
    int cnt = to - from;
    for (int j = 0; j < cnt; j++) {
      int item = perm[from + j];
      scratch[j] = ((long) Mbr.sortableBits(centers[item * d + axis]) << 32) | item;
    }
    Arrays.sort(scratch, 0, cnt);
    for (int j = 0; j < cnt; j++) {
      perm[from + j] = (int) scratch[j];
    }
    int slabs = unused == 1 ? ng : (int) Math.ceil(Math.pow(ng, 1.0 / unused) - 1e-9);
    slabs = Math.max(2, Math.min(ng, slabs));
    used[axis] = true;
    for (int j = 0; j < slabs; j++) {
      int h0 = g0 + (int) ((long) ng * j / slabs);
      int h1 = g0 + (int) ((long) ng * (j + 1) / slabs);
      tileRec(perm, s, len, groups, h0, h1, centers, d, used, unused - 1, scratch);
    }
    used[axis] = false;
  }
}
