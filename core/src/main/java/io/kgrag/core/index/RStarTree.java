package io.kgrag.core.index;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongConsumer;
import java.util.function.Predicate;

/**
 * A d-dimensional R*-tree over entries {@code (long key, float[] point, long id)}, the SG-RAG path index
 * (SG-RAG §4.2, Eq. 4): the key stands for the path's label embedding {@code o0(p)}, which SG-RAG compares
 * for exact equality, and the point is the path's dominance embedding {@code o(p)}.
 *
 * <p>Besides its bounding box (MBR), every node keeps the range {@code [minKey, maxKey]} of the keys below
 * it, the "label MBR" {@code MBR0(N)} of SG-RAG reduced to one exact key: a search for key k skips every
 * node whose range does not contain k.
 *
 * <p>Trees are built either
 *
 * <ul>
 *   <li>by {@link #insert}: the R*-tree of Beckmann, Kriegel, Schneider and Seeger (SIGMOD 1990):
 *       ChooseSubtree by least overlap enlargement for children that are leaves and least area enlargement
 *       above (§4.1, overlap computed over the 32 children of least area enlargement when a node has more),
 *       forced reinsertion of the 30% entries farthest from the node centre once per level per inserted
 *       entry, closest first (§4.3), and the margin-then-overlap split (§4.2, {@link RStarSplit}).
 *       Insertion places entries by geometry alone, so nodes of an inserted tree cover wide key ranges;
 *       or
 *   <li>by {@link Builder#bulkLoad}: Sort-Tile-Recursive packing, by default sorting by key first so that
 *       nodes cover short key ranges ({@link BulkLoadOrder}, {@link StrBulkLoader}). Prefer it for a
 *       static index: it is faster to build, fuller, and prunes by key far better.
 * </ul>
 *
 * <p>Both kinds of tree accept further insertions. Deletion is not supported. Searches are exact and
 * read-only (see {@link DominanceIndex}); an insertion must not run concurrently with anything else.
 *
 * <pre>{@code
 * RStarTree tree = RStarTree.builder(4).maxEntries(32).bulkLoad(keys, points, ids);
 * long[] ids = tree.dominanceQuery(labelKey, queryVector);
 * BatchResult r = tree.dominanceBatch(queryKeys, queryVectors, stats);
 * byte[] bytes = RTreeSerializer.serialize(tree);
 * }</pre>
 */
public final class RStarTree implements DominanceIndex {

  /** Default node capacity M. */
  public static final int DEFAULT_MAX_ENTRIES = 32;
  /** Default minimum fill m as a fraction of M (the R*-tree paper's best value). */
  public static final double DEFAULT_MIN_FILL = 0.4;
  /** Default share of a node's entries removed for forced reinsertion (R*-tree paper, p = 30%). */
  public static final double DEFAULT_REINSERT_FRACTION = 0.3;

  /** ChooseSubtree computes overlap enlargement only for this many children of least area enlargement. */
  private static final int OVERLAP_CANDIDATES = 32;

  private final int dims;
  private final int maxEntries;
  private final int minEntries;
  private final double reinsertFraction;
  private final int reinsertCount;
  private final BulkLoadOrder bulkLoadOrder;

  private Node root;
  private long size;
  /** Levels (bit i = level i) that had a forced reinsertion during the current data insertion. */
  private long reinsertedLevels;
  private final float[] tmpLo;
  private final float[] tmpHi;

  RStarTree(int dims, int maxEntries, int minEntries, double reinsertFraction, BulkLoadOrder order) {
    if (dims < 1) {
      throw new IllegalArgumentException("dims must be >= 1: " + dims);
    }
    if (maxEntries < 2) {
      throw new IllegalArgumentException("maxEntries must be >= 2: " + maxEntries);
    }
    if (minEntries < 1 || minEntries > maxEntries / 2) {
      throw new IllegalArgumentException(
          "minEntries must be in [1, maxEntries / 2] = [1, " + maxEntries / 2 + "]: " + minEntries);
    }
    if ((long) (maxEntries + 1) * dims > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("maxEntries x dims too large: " + maxEntries + " x " + dims);
    }
    if (!(reinsertFraction >= 0 && reinsertFraction < 1)) {
      throw new IllegalArgumentException("reinsertFraction must be in [0, 1): " + reinsertFraction);
    }
    this.dims = dims;
    this.maxEntries = maxEntries;
    this.minEntries = minEntries;
    this.reinsertFraction = reinsertFraction;
    // Keep at least minEntries in the node the entries are taken from.
    this.reinsertCount = reinsertFraction == 0
        ? 0
        : Math.max(1, Math.min((int) Math.round(reinsertFraction * maxEntries), maxEntries + 1 - minEntries));
    this.bulkLoadOrder = Objects.requireNonNull(order, "bulkLoadOrder");
    this.root = Node.newLeaf(dims, maxEntries + 1);
    this.tmpLo = new float[dims];
    this.tmpHi = new float[dims];
  }

  /** A builder for trees of {@code dims}-dimensional points. */
  public static Builder builder(int dims) {
    return new Builder(dims);
  }

  /** An empty tree with the default settings. */
  public static RStarTree create(int dims) {
    return builder(dims).build();
  }

  /** A tree bulk-loaded with the default settings; see {@link Builder#bulkLoad(long[], float[][], long[])}. */
  public static RStarTree bulkLoad(int dims, long[] keys, float[][] points, long[] ids) {
    return builder(dims).bulkLoad(keys, points, ids);
  }

  /** Settings of a tree; {@link #build()} gives an empty tree, {@code bulkLoad} a packed one. */
  public static final class Builder {
    private final int dims;
    private int maxEntries = DEFAULT_MAX_ENTRIES;
    private int minEntries = -1;
    private double reinsertFraction = DEFAULT_REINSERT_FRACTION;
    private BulkLoadOrder order = BulkLoadOrder.KEY_FIRST;

    private Builder(int dims) {
      this.dims = dims;
    }

    /** Node capacity M (default 32, at least 2). */
    public Builder maxEntries(int maxEntries) {
      this.maxEntries = maxEntries;
      return this;
    }

    /**
     * Minimum fill m of every node but the root, in {@code [1, M/2]}. Default: 40% of M, rounded, at
     * least 1 and at most M/2.
     */
    public Builder minEntries(int minEntries) {
      this.minEntries = minEntries;
      return this;
    }

    /** Share of M removed for forced reinsertion, in {@code [0, 1)}; 0 turns reinsertion off. */
    public Builder reinsertFraction(double reinsertFraction) {
      this.reinsertFraction = reinsertFraction;
      return this;
    }

    /** Grouping used by {@code bulkLoad} (default {@link BulkLoadOrder#KEY_FIRST}). */
    public Builder bulkLoadOrder(BulkLoadOrder order) {
      this.order = order;
      return this;
    }

    private int resolvedMinEntries() {
      if (minEntries >= 0) {
        return minEntries;
      }
      return Math.max(1, Math.min(maxEntries / 2, (int) Math.round(DEFAULT_MIN_FILL * maxEntries)));
    }

    /** An empty tree. */
    public RStarTree build() {
      return new RStarTree(dims, maxEntries, resolvedMinEntries(), reinsertFraction, order);
    }

    /**
     * A tree packed by Sort-Tile-Recursive over the given entries ({@code points[i]} has {@code dims}
     * finite coordinates; the arrays are copied).
     */
    public RStarTree bulkLoad(long[] keys, float[][] points, long[] ids) {
      if (points.length != keys.length) {
        throw new IllegalArgumentException(
            "keys and points differ in length: " + keys.length + " vs " + points.length);
      }
      float[] flat = new float[Math.multiplyExact(points.length, dims)];
      for (int e = 0; e < points.length; e++) {
        Checks.point(points[e], dims);
        System.arraycopy(points[e], 0, flat, e * dims, dims);
      }
      return bulkLoadFlat(keys, flat, ids);
    }

    /**
     * As {@link #bulkLoad(long[], float[][], long[])} with the points flattened: point e is
     * {@code points[e * dims .. (e + 1) * dims)}.
     */
    public RStarTree bulkLoad(long[] keys, float[] points, long[] ids) {
      if ((long) keys.length * dims != points.length) {
        throw new IllegalArgumentException(
            "points has " + points.length + " floats, expected keys.length * dims = " + (long) keys.length * dims);
      }
      for (int j = 0; j < points.length; j++) {
        if (!Float.isFinite(points[j])) {
          throw new IllegalArgumentException(
              "point " + j / dims + " coordinate " + j % dims + " is not finite: " + points[j]);
        }
      }
      return bulkLoadFlat(keys, points, ids);
    }

    private RStarTree bulkLoadFlat(long[] keys, float[] flat, long[] ids) {
      if (ids.length != keys.length) {
        throw new IllegalArgumentException("keys and ids differ in length: " + keys.length + " vs " + ids.length);
      }
      RStarTree t = build();
      t.root = StrBulkLoader.load(dims, t.maxEntries, t.minEntries, order, keys, flat, ids, keys.length);
      t.size = keys.length;
      return t;
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Accessors

  @Override
  public int dims() {
    return dims;
  }

  @Override
  public long size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Node capacity M. */
  public int maxEntries() {
    return maxEntries;
  }

  /** Minimum fill m of every node but the root. */
  public int minEntries() {
    return minEntries;
  }

  /** Share of M removed for forced reinsertion. */
  public double reinsertFraction() {
    return reinsertFraction;
  }

  /** Grouping used by bulk loading (kept so that a deserialised tree reports it). */
  public BulkLoadOrder bulkLoadOrder() {
    return bulkLoadOrder;
  }

  /** Number of levels; 1 for a single leaf (also for the empty tree). */
  public int height() {
    return root.level + 1;
  }

  Node root() {
    return root;
  }

  /** Used by the deserialiser. */
  void setContents(Node root, long size) {
    this.root = root;
    this.size = size;
  }

  // ------------------------------------------------------------------------------------------------
  // Insertion (R*-tree paper, Beckmann et al. 1990, §4)

  /** Inserts one entry; {@code point} must have {@link #dims()} finite coordinates (it is copied). */
  public void insert(long key, float[] point, long id) {
    Checks.point(point, dims);
    reinsertedLevels = 0;
    insertEntry(key, point, 0, id);
    size++;
  }

  private void insertEntry(long key, float[] pts, int off, long id) {
    Node[] path = choosePath(pts, off, pts, off, 0);
    path[path.length - 1].addEntry(key, pts, off, id);
    adjustPath(path);
  }

  private void insertSubtree(Node child) {
    Node[] path = choosePath(child.low, 0, child.high, 0, child.level + 1);
    path[path.length - 1].addChild(child);
    adjustPath(path);
  }

  /** The path from the root to the node at {@code targetLevel} chosen by ChooseSubtree (§4.1). */
  private Node[] choosePath(float[] lo, int loOff, float[] hi, int hiOff, int targetLevel) {
    Node n = root;
    Node[] path = new Node[n.level - targetLevel + 1];
    path[0] = n;
    int depth = 0;
    while (n.level > targetLevel) {
      n = n.children[chooseChild(n, lo, loOff, hi, hiOff)];
      path[++depth] = n;
    }
    return path;
  }

  /**
   * ChooseSubtree (CS2): for children that are leaves, least overlap enlargement, ties by least area
   * enlargement; above, least area enlargement, ties by least area. For zero-volume boxes (duplicate
   * points, constant coordinates), where every volume criterion ties at 0, margin enlargement breaks the
   * tie before area.
   */
  private int chooseChild(Node n, float[] lo, int loOff, float[] hi, int hiOff) {
    final int d = dims;
    final int cnt = n.count;
    final Node[] ch = n.children;
    double[] areaEnl = new double[cnt];
    double[] marginEnl = new double[cnt];
    double[] area = new double[cnt];
    for (int i = 0; i < cnt; i++) {
      Node c = ch[i];
      Mbr.union(c.low, 0, c.high, 0, lo, loOff, hi, hiOff, tmpLo, tmpHi, d);
      area[i] = Mbr.area(c.low, 0, c.high, 0, d);
      areaEnl[i] = Mbr.area(tmpLo, 0, tmpHi, 0, d) - area[i];
      marginEnl[i] = Mbr.margin(tmpLo, 0, tmpHi, 0, d) - Mbr.margin(c.low, 0, c.high, 0, d);
    }
    if (n.level != 1) {
      int best = 0;
      for (int i = 1; i < cnt; i++) {
        if (less(areaEnl[i], marginEnl[i], area[i], areaEnl[best], marginEnl[best], area[best])) {
          best = i;
        }
      }
      return best;
    }
    // Children are leaves: least overlap enlargement among the candidates.
    int[] cand = new int[cnt];
    for (int i = 0; i < cnt; i++) {
      cand[i] = i;
    }
    int nc = cnt;
    if (cnt > OVERLAP_CANDIDATES) {
      IntSort.sort(cand, 0, cnt, (a, b) -> Double.compare(areaEnl[a], areaEnl[b]));
      nc = OVERLAP_CANDIDATES;
    }
    int best = -1;
    double bestOverlapEnl = Double.POSITIVE_INFINITY;
    for (int ci = 0; ci < nc; ci++) {
      int i = cand[ci];
      Node c = ch[i];
      double overlapEnl;
      if (areaEnl[i] == 0 && marginEnl[i] == 0) {
        overlapEnl = 0; // the item lies inside c: c's box does not change
      } else {
        Mbr.union(c.low, 0, c.high, 0, lo, loOff, hi, hiOff, tmpLo, tmpHi, d);
        overlapEnl = 0;
        for (int j = 0; j < cnt; j++) {
          if (j != i) {
            Node o = ch[j];
            overlapEnl += Mbr.overlap(tmpLo, 0, tmpHi, 0, o.low, 0, o.high, 0, d)
                - Mbr.overlap(c.low, 0, c.high, 0, o.low, 0, o.high, 0, d);
          }
        }
      }
      if (best < 0
          || overlapEnl < bestOverlapEnl
          || (overlapEnl == bestOverlapEnl
              && less(areaEnl[i], marginEnl[i], area[i], areaEnl[best], marginEnl[best], area[best]))) {
        best = i;
        bestOverlapEnl = overlapEnl;
      }
    }
    return best;
  }

  private static boolean less(double ae1, double me1, double a1, double ae2, double me2, double a2) {
    if (ae1 != ae2) {
      return ae1 < ae2;
    }
    if (me1 != me2) {
      return me1 < me2;
    }
    return a1 < a2;
  }

  /**
   * Bottom-up after adding an item to the last node of {@code path}: OverflowTreatment (forced reinsert
   * once per level per data insertion, else split, §4.3) and tight bounds on the way up.
   */
  private void adjustPath(Node[] path) {
    for (int i = path.length - 1; i >= 0; i--) {
      Node n = path[i];
      if (n.count <= maxEntries) {
        n.recomputeBounds();
        continue;
      }
      if (i > 0 && reinsertCount > 0 && n.level < 64 && (reinsertedLevels & (1L << n.level)) == 0) {
        reinsertedLevels |= 1L << n.level;
        forcedReinsert(path, i);
        return; // the reinsertions adjusted their own paths; this path may be stale now
      }
      Node sibling = split(n);
      if (i == 0) {
        Node r = Node.newInternal(dims, n.level + 1, maxEntries + 1);
        r.addChild(n);
        r.addChild(sibling);
        r.recomputeBounds();
        root = r;
      } else {
        path[i - 1].addChild(sibling);
      }
    }
  }

  /**
   * ReInsert (§4.3): remove the {@code p} items whose centres are farthest from the centre of the node's
   * box, tighten the boxes on the path, then insert them again at the same level, closest first ("close
   * reinsert", which the paper found best).
   */
  private void forcedReinsert(Node[] path, int i) {
    Node n = path[i];
    final int d = dims;
    final int cnt = n.count;
    n.recomputeBounds();
    double[] dist = new double[cnt];
    for (int j = 0; j < cnt; j++) {
      double s = 0;
      for (int a = 0; a < d; a++) {
        double center = ((double) n.low[a] + n.high[a]) * 0.5;
        double c = n.isLeaf()
            ? n.points[j * d + a]
            : ((double) n.children[j].low[a] + n.children[j].high[a]) * 0.5;
        s += (c - center) * (c - center);
      }
      dist[j] = s;
    }
    int[] order = new int[cnt];
    for (int j = 0; j < cnt; j++) {
      order[j] = j;
    }
    IntSort.sort(order, 0, cnt, (a, b) -> Double.compare(dist[b], dist[a])); // farthest first
    int p = reinsertCount;
    boolean[] removed = new boolean[cnt];
    for (int j = 0; j < p; j++) {
      removed[order[j]] = true;
    }
    if (n.isLeaf()) {
      long[] rKeys = new long[p];
      long[] rIds = new long[p];
      float[] rPts = new float[p * d];
      for (int j = 0; j < p; j++) {
        int e = order[j];
        rKeys[j] = n.keys[e];
        rIds[j] = n.ids[e];
        System.arraycopy(n.points, e * d, rPts, j * d, d);
      }
      int w = 0;
      for (int e = 0; e < cnt; e++) {
        if (!removed[e]) {
          n.keys[w] = n.keys[e];
          n.ids[w] = n.ids[e];
          System.arraycopy(n.points, e * d, n.points, w * d, d);
          w++;
        }
      }
      n.count = w;
      tightenPath(path, i);
      for (int j = p - 1; j >= 0; j--) {
        insertEntry(rKeys[j], rPts, j * d, rIds[j]);
      }
    } else {
      Node[] rNodes = new Node[p];
      for (int j = 0; j < p; j++) {
        rNodes[j] = n.children[order[j]];
      }
      int w = 0;
      for (int c = 0; c < cnt; c++) {
        if (!removed[c]) {
          n.children[w++] = n.children[c];
        }
      }
      Arrays.fill(n.children, w, cnt, null);
      n.count = w;
      tightenPath(path, i);
      for (int j = p - 1; j >= 0; j--) {
        insertSubtree(rNodes[j]);
      }
    }
  }

  private static void tightenPath(Node[] path, int i) {
    for (int j = i; j >= 0; j--) {
      path[j].recomputeBounds();
    }
  }

  /** Splits an overflowing node in place; returns the new sibling (same level). */
  private Node split(Node n) {
    final int d = dims;
    final int cnt = n.count;
    float[] lo;
    float[] hi;
    if (n.isLeaf()) {
      lo = Arrays.copyOf(n.points, cnt * d);
      hi = lo;
    } else {
      lo = new float[cnt * d];
      hi = new float[cnt * d];
      for (int j = 0; j < cnt; j++) {
        System.arraycopy(n.children[j].low, 0, lo, j * d, d);
        System.arraycopy(n.children[j].high, 0, hi, j * d, d);
      }
    }
    int[] perm = new int[cnt];
    int k = RStarSplit.split(lo, hi, cnt, d, minEntries, perm);
    Node sibling;
    if (n.isLeaf()) {
      sibling = Node.newLeaf(d, maxEntries + 1);
      long[] keys = Arrays.copyOf(n.keys, cnt);
      long[] ids = Arrays.copyOf(n.ids, cnt);
      n.count = 0;
      for (int j = 0; j < cnt; j++) {
        int e = perm[j];
        (j < k ? n : sibling).addEntry(keys[e], lo, e * d, ids[e]);
      }
    } else {
      sibling = Node.newInternal(d, n.level, maxEntries + 1);
      Node[] kids = Arrays.copyOf(n.children, cnt);
      Arrays.fill(n.children, null);
      n.count = 0;
      for (int j = 0; j < cnt; j++) {
        (j < k ? n : sibling).addChild(kids[perm[j]]);
      }
    }
    n.recomputeBounds();
    sibling.recomputeBounds();
    return sibling;
  }

  // ------------------------------------------------------------------------------------------------
  // Searches

  private Node[] newStack() {
    return new Node[(root.level + 1) * maxEntries + 1];
  }

  @Override
  public void dominanceQuery(long key, float[] query, LongConsumer out, SearchStats stats) {
    Checks.query(query, dims, "query vector");
    Objects.requireNonNull(out, "out");
    final int d = dims;
    search(
        n -> key >= n.minKey && key <= n.maxKey && Mbr.meetsDominanceRegion(n.high, 0, query, d),
        (n, e) -> n.keys[e] == key && Mbr.meetsDominanceRegion(n.points, e * d, query, d),
        out,
        stats);
  }

  @Override
  public void windowQuery(
      long minKey, long maxKey, float[] low, float[] high, LongConsumer out, SearchStats stats) {
    Checks.query(low, dims, "window low");
    Checks.query(high, dims, "window high");
    Objects.requireNonNull(out, "out");
    final int d = dims;
    search(
        n -> n.maxKey >= minKey && n.minKey <= maxKey && Mbr.intersects(n.low, n.high, low, high, d),
        (n, e) -> {
          long k = n.keys[e];
          return k >= minKey && k <= maxKey && Mbr.pointInBox(n.points, e * d, low, high, d);
        },
        out,
        stats);
  }

  /** Whether entry {@code e} of leaf {@code n} is a match. */
  private interface EntryTest {
    boolean test(Node n, int e);
  }

  /**
   * Depth-first search from the root: descends into the nodes {@code enter} accepts (the root included),
   * reports the leaf entries {@code match} accepts, and counts what it did into {@code stats} if given.
   */
  private void search(Predicate<Node> enter, EntryTest match, LongConsumer out, SearchStats stats) {
    long visited = 0;
    long leaves = 0;
    long nodeTests = 0;
    long tested = 0;
    long found = 0;
    Node r = root;
    if (r.count > 0 && enter.test(r)) {
      Node[] stack = newStack();
      int sp = 0;
      stack[sp++] = r;
      while (sp > 0) {
        Node n = stack[--sp];
        visited++;
        if (n.isLeaf()) {
          leaves++;
          tested += n.count;
          for (int e = 0; e < n.count; e++) {
            if (match.test(n, e)) {
              out.accept(n.ids[e]);
              found++;
            }
          }
        } else {
          nodeTests += n.count;
          for (int c = 0; c < n.count; c++) {
            Node ch = n.children[c];
            if (enter.test(ch)) {
              stack[sp++] = ch;
            }
          }
        }
      }
    }
    if (stats != null) {
      stats.recordQuery(visited, leaves, nodeTests, tested, found);
    }
  }

  /** One best-first traversal for the whole batch: SG-RAG Algorithm 7, see {@link DominanceBatchSearch}. */
  @Override
  public BatchResult dominanceBatch(long[] keys, float[][] queries, SearchStats stats) {
    return DominanceBatchSearch.search(this, keys, queries, stats);
  }

  /** Calls {@code visitor} for every entry, leaf by leaf. */
  public void forEach(EntryVisitor visitor) {
    final int d = dims;
    float[] scratch = new float[d];
    if (root.count == 0) {
      return;
    }
    Node[] stack = newStack();
    int sp = 0;
    stack[sp++] = root;
    while (sp > 0) {
      Node n = stack[--sp];
      if (n.isLeaf()) {
        for (int e = 0; e < n.count; e++) {
          System.arraycopy(n.points, e * d, scratch, 0, d);
          visitor.visit(n.keys[e], scratch, n.ids[e]);
        }
      } else {
        for (int c = n.count - 1; c >= 0; c--) {
          stack[sp++] = n.children[c];
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Statistics and invariants

  /** Height, node and entry counts, root box and key range. O(number of nodes). */
  public TreeStats stats() {
    long[] counts = new long[2]; // nodes, leaves
    countNodes(root, counts);
    Rect mbr = root.count == 0 ? Rect.empty(dims) : Rect.of(root.low, root.high);
    return new TreeStats(
        dims, height(), counts[0], counts[1], size, maxEntries, minEntries, mbr, root.minKey, root.maxKey);
  }

  private static void countNodes(Node n, long[] counts) {
    counts[0]++;
    if (n.isLeaf()) {
      counts[1]++;
    } else {
      for (int c = 0; c < n.count; c++) {
        countNodes(n.children[c], counts);
      }
    }
  }

  /**
   * Verifies the structure: every leaf at level 0 and every child one level below its parent (so all
   * leaves lie at the same depth); every node's box and key range exactly the union of its children's or
   * entries' (so every child lies inside its parent); every node but the root holding between m and M
   * items, the root at most M (and at least 2 children when internal); finite points; the entry count.
   *
   * @throws IllegalStateException naming the first violation found
   */
  public void checkInvariants() {
    if (root.count > maxEntries) {
      throw new IllegalStateException("root holds " + root.count + " > M = " + maxEntries);
    }
    if (!root.isLeaf() && root.count < 2) {
      throw new IllegalStateException("internal root has " + root.count + " child(ren)");
    }
    long entries = check(root, true, "root");
    if (entries != size) {
      throw new IllegalStateException("tree holds " + entries + " entries but size() is " + size);
    }
  }

  private long check(Node n, boolean isRoot, String where) {
    final int d = dims;
    if (!isRoot && (n.count < minEntries || n.count > maxEntries)) {
      throw new IllegalStateException(
          where + " (level " + n.level + ") holds " + n.count + " items, outside [" + minEntries + ", " + maxEntries + "]");
    }
    float[] lo = new float[d];
    float[] hi = new float[d];
    Arrays.fill(lo, Float.POSITIVE_INFINITY);
    Arrays.fill(hi, Float.NEGATIVE_INFINITY);
    long minK = Long.MAX_VALUE;
    long maxK = Long.MIN_VALUE;
    long entries = 0;
    if (n.isLeaf()) {
      for (int e = 0; e < n.count; e++) {
        for (int i = 0; i < d; i++) {
          float v = n.points[e * d + i];
          if (!Float.isFinite(v)) {
            throw new IllegalStateException(where + " entry " + e + " has a non-finite coordinate");
          }
          lo[i] = Math.min(lo[i], v);
          hi[i] = Math.max(hi[i], v);
        }
        minK = Math.min(minK, n.keys[e]);
        maxK = Math.max(maxK, n.keys[e]);
      }
      entries = n.count;
    } else {
      for (int c = 0; c < n.count; c++) {
        Node ch = n.children[c];
        String w = where + "/" + c;
        if (ch == null) {
          throw new IllegalStateException(w + " is null");
        }
        if (ch.level != n.level - 1) {
          throw new IllegalStateException(w + " is at level " + ch.level + " under a node at level " + n.level);
        }
        entries += check(ch, false, w);
        for (int i = 0; i < d; i++) {
          if (ch.low[i] < n.low[i] || ch.high[i] > n.high[i]) {
            throw new IllegalStateException(w + " box is not inside its parent's in dimension " + i);
          }
          lo[i] = Math.min(lo[i], ch.low[i]);
          hi[i] = Math.max(hi[i], ch.high[i]);
        }
        if (ch.minKey < n.minKey || ch.maxKey > n.maxKey) {
          throw new IllegalStateException(w + " key range is not inside its parent's");
        }
        minK = Math.min(minK, ch.minKey);
        maxK = Math.max(maxK, ch.maxKey);
      }
    }
    if (!Arrays.equals(lo, n.low) || !Arrays.equals(hi, n.high)) {
      throw new IllegalStateException(where + " box is not the tight bound of its contents");
    }
    if (minK != n.minKey || maxK != n.maxKey) {
      throw new IllegalStateException(where + " key range is not the tight bound of its contents");
    }
    return entries;
  }

  @Override
  public String toString() {
    return "RStarTree{dims=" + dims + ", size=" + size + ", height=" + height()
        + ", M=" + maxEntries + ", m=" + minEntries + '}';
  }
}
