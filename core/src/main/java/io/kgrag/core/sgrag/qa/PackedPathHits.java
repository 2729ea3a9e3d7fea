package io.kgrag.core.sgrag.qa;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Path hits packed into three arrays: the form a question's hits travel in between the phases of a run. Java
 * serialisation of one record per hit, each with its own array, cost a large share of a 10M-edge run's time,
 * since a question's completion hits are written and read again in every phase.
 *
 * @param pathNos each hit's query path number
 * @param ends where each hit's node ids end in {@code nodeIds} (exclusive); hit {@code i} starts at {@code ends[i - 1]}, or 0
 * @param nodeIds every hit's entity ids, one hit after the other
 */
public record PackedPathHits(int[] pathNos, int[] ends, long[] nodeIds) implements Serializable {

  /** {@code hits} packed, in order. */
  public static PackedPathHits of(List<PathHit> hits) {
    int[] pathNos = new int[hits.size()];
    int[] ends = new int[hits.size()];
    int total = 0;
    for (int i = 0; i < hits.size(); i++) {
      pathNos[i] = hits.get(i).pathNo();
      total += hits.get(i).nodeIds().length;
      ends[i] = total;
    }
    long[] nodeIds = new long[total];
    int at = 0;
    for (PathHit h : hits) {
      System.arraycopy(h.nodeIds(), 0, nodeIds, at, h.nodeIds().length);
      at += h.nodeIds().length;
    }
    return new PackedPathHits(pathNos, ends, nodeIds);
  }

  /** The hits, in the order they were packed. */
  public ArrayList<PathHit> unpack() {
    ArrayList<PathHit> out = new ArrayList<>(pathNos.length);
    int from = 0;
    for (int i = 0; i < pathNos.length; i++) {
      out.add(new PathHit(pathNos[i], java.util.Arrays.copyOfRange(nodeIds, from, ends[i])));
      from = ends[i];
    }
    return out;
  }
}
