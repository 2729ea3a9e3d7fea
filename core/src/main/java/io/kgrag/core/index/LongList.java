package io.kgrag.core.index;

import java.util.Arrays;

/** A growable array of longs (result ids) without boxing. */
final class LongList {

  private long[] a;
  private int n;

  LongList() {
    this(8);
  }

  LongList(int capacity) {
    a = new long[Math.max(1, capacity)];
  }

  void add(long v) {
    if (n == a.length) {
      a = Arrays.copyOf(a, a.length * 2);
    }
    a[n++] = v;
  }

  int size() {
    return n;
  }

  long[] toArray() {
    return Arrays.copyOf(a, n);
  }
}
