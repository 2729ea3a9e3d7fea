package io.kgrag.core.qa.normalize;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The label index as one question's step sees it when no executor holds the index: lookups answered from what the
 * shards answered so far ({@link #answerFrom}); a lookup not answered yet is recorded ({@link #missing}) and answered
 * for now with nothing (no nearest labels; a zero vector for a key), so one pass of the step collects every lookup
 * it can see. The step's result is then thrown away, the shards answer the recorded lookups where they live, and the
 * step runs again, until it asks nothing new: its result is then the one the whole index would have given, because
 * every lookup it read was answered by every shard ({@link LabelRequest#merge}).
 */
public final class ServedLabels implements LabelSearch {
  private final int dims;
  private Map<LabelRequest, LabelRequest.Answer> answered = Map.of();
  private final LinkedHashSet<LabelRequest> missing = new LinkedHashSet<>();

  /** @param dims the dimension of the stored label vectors (of a key's placeholder while it is not answered) */
  public ServedLabels(int dims) {
    if (dims < 1) {
      throw new IllegalArgumentException("dims must be at least 1, got " + dims);
    }
    this.dims = dims;
  }

  /** Answers lookups from {@code lookups} from now on, and forgets what was missing. */
  public void answerFrom(Answered lookups) {
    this.answered = lookups.answers;
    missing.clear();
  }

  @Override
  public List<LabelIndex.Hit> nearest(float[] vector, int k) {
    LabelRequest r = LabelRequest.nearest(vector, k);
    LabelRequest.Answer a = answered.get(r);
    if (a == null) {
      missing.add(r);
      return List.of();
    }
    return a.hits();
  }

  /** The vector stored for {@code labelKey}, null when the index has no such key. */
  public float[] vector(long labelKey) {
    LabelRequest r = LabelRequest.vectorOf(labelKey);
    LabelRequest.Answer a = answered.get(r);
    if (a == null) {
      missing.add(r);
      return new float[dims];
    }
    return a.vector();
  }

  /** True when this pass read a lookup not answered yet, so its result is not the index's. */
  public boolean missed() {
    return !missing.isEmpty();
  }

  /** The lookups this pass read that are not answered yet, in the order first read. */
  public List<LabelRequest> missing() {
    return new ArrayList<>(missing);
  }

  /** A question's answered lookups; immutable, serialisable (it travels with the question between steps). */
  public static final class Answered implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final Answered NONE = new Answered(Map.of());

    private final Map<LabelRequest, LabelRequest.Answer> answers;

    private Answered(Map<LabelRequest, LabelRequest.Answer> answers) {
      this.answers = answers;
    }

    /** These lookups and {@code more}'s (an absent key's answer has a null vector). */
    public Answered with(Map<LabelRequest, LabelRequest.Answer> more) {
      HashMap<LabelRequest, LabelRequest.Answer> all = new HashMap<>(answers);
      all.putAll(more);
      return new Answered(all);
    }

    /** Lookups answered. */
    public int size() {
      return answers.size();
    }
  }
}
