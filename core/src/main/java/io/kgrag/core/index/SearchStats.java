package io.kgrag.core.index;

/**
 * Work counters of index searches, for benchmarks and for reporting how much of a tree a probe touches
 * (compare {@link #nodesVisited()} with {@link TreeStats#nodeCount()}).
 *
 * <p>A {@code SearchStats} object accumulates over every search it is passed to until {@link #reset()}.
 * It is not thread-safe: use one per thread and {@link #add(SearchStats)} them afterwards. Searches accept
 * {@code null} where no counting is wanted.
 */
public final class SearchStats {

  long queries;
  long nodesVisited;
  long leavesVisited;
  long nodeTests;
  long entriesTested;
  long results;
  long heapPushes;

  /** Number of query vectors searched (a batch of n counts n). */
  public long queries() {
    return queries;
  }

  /** Nodes (internal and leaf) whose contents were examined. */
  public long nodesVisited() {
    return nodesVisited;
  }

  /** Leaves among {@link #nodesVisited()}. */
  public long leavesVisited() {
    return leavesVisited;
  }

  /**
   * Child-versus-query tests at internal nodes (key range and box test). In a batch search this counts
   * every (child, query) pair tested.
   */
  public long nodeTests() {
    return nodeTests;
  }

  /**
   * Leaf entries tested against a query. In a batch search this counts every (entry, query) pair tested.
   */
  public long entriesTested() {
    return entriesTested;
  }

  /** Ids reported. */
  public long results() {
    return results;
  }

  /** Nodes pushed on the best-first heap (batch search only). */
  public long heapPushes() {
    return heapPushes;
  }

  /** Sets every counter to zero. */
  public void reset() {
    queries = 0;
    nodesVisited = 0;
    leavesVisited = 0;
    nodeTests = 0;
    entriesTested = 0;
    results = 0;
    heapPushes = 0;
  }

  /** Counts one finished query of a tree traversal. */
  void recordQuery(long visited, long leaves, long tests, long tested, long found) {
    queries++;
    nodesVisited += visited;
    leavesVisited += leaves;
    nodeTests += tests;
    entriesTested += tested;
    results += found;
  }

  /** Adds the counters of {@code other} to this one. */
  public void add(SearchStats other) {
    queries += other.queries;
    nodesVisited += other.nodesVisited;
    leavesVisited += other.leavesVisited;
    nodeTests += other.nodeTests;
    entriesTested += other.entriesTested;
    results += other.results;
    heapPushes += other.heapPushes;
  }

  @Override
  public String toString() {
    return "SearchStats{queries=" + queries
        + ", nodesVisited=" + nodesVisited
        + ", leavesVisited=" + leavesVisited
        + ", nodeTests=" + nodeTests
        + ", entriesTested=" + entriesTested
        + ", results=" + results
        + ", heapPushes=" + heapPushes + '}';
  }
}
