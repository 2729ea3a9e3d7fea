package io.kgrag.core.stem;

import java.util.List;

/**
 * STEM's semantic-to-structural projection (§3.1–3.2, the SGDA and SAGB together): a question into candidate
 * schema plans, best first (the paper's beam gives up to B = 4). An empty list means no plan could be made;
 * implementations throw {@link io.kgrag.core.qa.QaException} for a question they cannot read at all.
 */
public interface Decomposer {
  List<SchemaPlan> decompose(String question);
}
