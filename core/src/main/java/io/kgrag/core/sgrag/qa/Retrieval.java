package io.kgrag.core.sgrag.qa;

import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import java.io.Serializable;
import java.util.List;

/** What retrieval found for one question: status (exact/partial/fallback/unable), ranked candidates, a note. */
public record Retrieval(AnswerStatus status, List<Candidate> candidates, String note) implements Serializable {}
