package io.kgrag.core.qa;

import java.io.Serializable;

/** One directed edge of the knowledge graph that supports an answer, with the labels of its ends. */
public record EvidenceEdge(long srcId, String srcLabel, String relation, long dstId, String dstLabel) implements Serializable {}
