import { redisFixtureSuite } from "../shared/redis-fixture.ts"

redisFixtureSuite()
