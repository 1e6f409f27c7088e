package pipeline

import "github.com/apache/beam/sdks/v2/go/pkg/beam"

// The run's Beam metrics (counters in namespace "wordveil"): progress
// while it runs, totals at its end (Counts).
const (
	metricsNamespace     = "wordveil"
	CounterRecordsRead   = "records_read"
	CounterMalformed     = "lines_malformed"
	CounterReleased      = "records_released"
	CounterWithheld      = "records_withheld"
	CounterWordsReleased = "words_released"
	CounterUsers         = "users"
	CounterUsersCapped   = "users_capped"
)

// Counts are a run's totals.
type Counts struct {
	RecordsRead, Malformed, Released, Withheld, WordsReleased, Users, UsersCapped int64
}

// countsOf sums each counter over the steps that report it (attempted
// values where the runner has no committed ones).
func countsOf(res beam.PipelineResult) Counts {
	var c Counts
	if res == nil {
		return c
	}
	dst := map[string]*int64{
		CounterRecordsRead: &c.RecordsRead, CounterMalformed: &c.Malformed, CounterReleased: &c.Released,
		CounterWithheld: &c.Withheld, CounterWordsReleased: &c.WordsReleased, CounterUsers: &c.Users,
		CounterUsersCapped: &c.UsersCapped,
	}
	for _, r := range res.Metrics().AllMetrics().Counters() {
		if r.Key.Namespace != metricsNamespace {
			continue
		}
		if p, ok := dst[r.Key.Name]; ok {
			*p += r.Result()
		}
	}
	return c
}
