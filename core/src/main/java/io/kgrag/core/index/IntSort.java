package io.kgrag.core.index;

/** A stable merge sort of int arrays under a primitive comparator (no boxing). */
final class IntSort {

  /** Compares two item indices. */
  @FunctionalInterface
  interface IntComparator {
    int compare(int a, int b);
  }

  private IntSort() {}

  /** Sorts {@code a[from, to)} stably. */
  static void sort(int[] a, int from, int to, IntComparator cmp) {
    int n = to - from;
    if (n < 2) {
      return;
    }
    int[] tmp = new int[n];
    mergeSort(a, from, to, tmp, cmp);
  }

  private static void mergeSort(int[] a, int from, int to, int[] tmp, IntComparator cmp) {
    int n = to - from;
    if (n <= 16) {
      for (int i = from + 1; i < to; i++) {
        int x = a[i];
        int j = i - 1;
        while (j >= from && cmp.compare(a[j], x) > 0) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = x;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(a, from, mid, tmp, cmp);
    mergeSort(a, mid, to, tmp, cmp);
    if (cmp.compare(a[mid - 1], a[mid]) <= 0) {
      return; // already ordered
    }
    System.arraycopy(a, from, tmp, 0, n);
    int i = 0;
    int j = mid - from;
    int leftEnd = mid - from;
    int k = from;
    while (i < leftEnd && j < n) {
      if (cmp.compare(tmp[j], tmp[i]) < 0) {
        a[k++] = tmp[j++];
      } else {
        a[k++] = tmp[i++];
      }
    }
    while (i < leftEnd) {
      a[k++] = tmp[i++];
    }
    while (j < n) {
      a[k++] = tmp[j++];
    }
  }
}
