package translate

import "github.com/toolerr/toolerr"

// awsCodes maps AWS error codes, as the JSON, Query, EC2, S3 and REST
// protocols write them (namespace and suffix stripped), to toolerr codes.
// AWS scopes codes by service, but the common ones mean the same thing
// everywhere; where a name is ambiguous the row says which reading wins.
var awsCodes = map[string]string{
	// Throttling: the AWS SDKs retry these after backing off.
	"Throttling":                             toolerr.CodeRateLimited,
	"ThrottlingException":                    toolerr.CodeRateLimited,
	"ThrottledException":                     toolerr.CodeRateLimited,
	"RequestThrottled":                       toolerr.CodeRateLimited, // SQS
	"RequestThrottledException":              toolerr.CodeRateLimited,
	"TooManyRequestsException":               toolerr.CodeRateLimited, // Lambda, API Gateway
	"RequestLimitExceeded":                   toolerr.CodeRateLimited, // EC2 API request rate
	"EC2ThrottledException":                  toolerr.CodeRateLimited,
	"ProvisionedThroughputExceededException": toolerr.CodeRateLimited, // DynamoDB, Kinesis
	"BandwidthLimitExceeded":                 toolerr.CodeRateLimited,
	"SlowDown":                               toolerr.CodeRateLimited, // S3 503

	// Account and service quotas: waiting seconds does not raise them.
	// LimitExceededException is mostly a resource-count or period limit
	// (Cognito, IAM, Kinesis stream counts, API Gateway's usage-plan quota,
	// whose throttle is TooManyRequestsException instead). The JS SDK v3
	// dropped it from its throttling codes; aws-sdk-go-v2's standard
	// retryer still retries it, which this table does not follow: a
	// period quota fails the same way until the period ends.
	"ServiceQuotaExceededException": toolerr.CodeQuotaExhausted,
	"LimitExceededException":        toolerr.CodeQuotaExhausted,
	"LimitExceeded":                 toolerr.CodeQuotaExhausted, // IAM, STS (Query)
	"InstanceLimitExceeded":         toolerr.CodeQuotaExhausted, // EC2
	"VcpuLimitExceeded":             toolerr.CodeQuotaExhausted, // EC2
	"AddressLimitExceeded":          toolerr.CodeQuotaExhausted, // EC2 Elastic IPs
	"ResourceLimitExceeded":         toolerr.CodeQuotaExhausted,
	"TooManyBuckets":                toolerr.CodeQuotaExhausted, // S3 bucket count

	// The request as sent is invalid.
	"ValidationException":              toolerr.CodeValidationFailed,
	"ValidationError":                  toolerr.CodeValidationFailed, // IAM, CloudFormation (Query)
	"InvalidParameterValue":            toolerr.CodeValidationFailed,
	"InvalidParameterValueException":   toolerr.CodeValidationFailed,
	"InvalidParameterException":        toolerr.CodeValidationFailed,
	"InvalidParameterCombination":      toolerr.CodeValidationFailed,
	"InvalidParameter":                 toolerr.CodeValidationFailed, // SNS
	"MissingParameter":                 toolerr.CodeValidationFailed,
	"MalformedPolicyDocument":          toolerr.CodeValidationFailed,
	"MalformedPolicyDocumentException": toolerr.CodeValidationFailed,
	"InvalidArgument":                  toolerr.CodeValidationFailed, // S3
	"InvalidRequest":                   toolerr.CodeValidationFailed, // S3
	"InvalidRequestException":          toolerr.CodeValidationFailed,
	"InvalidInput":                     toolerr.CodeValidationFailed, // Route 53
	"InvalidInputException":            toolerr.CodeValidationFailed,
	"SerializationException":           toolerr.CodeValidationFailed,
	"BadRequestException":              toolerr.CodeValidationFailed, // API Gateway, Lambda
	"MalformedXML":                     toolerr.CodeValidationFailed,
	"InvalidBucketName":                toolerr.CodeValidationFailed,
	"KeyTooLongError":                  toolerr.CodeValidationFailed,
	"EntityTooSmall":                   toolerr.CodeValidationFailed,
	"InvalidRange":                     toolerr.CodeValidationFailed,
	"EntityTooLarge":                   toolerr.CodePayloadTooLarge, // S3
	"RequestEntityTooLargeException":   toolerr.CodePayloadTooLarge, // Lambda, API Gateway

	// The tool called an operation the service does not offer.
	"InvalidAction":             toolerr.CodeNotImplemented,
	"UnknownOperationException": toolerr.CodeNotImplemented,
	"UnsupportedOperation":      toolerr.CodeNotImplemented, // EC2
	"NotImplemented":            toolerr.CodeNotImplemented, // S3 501

	// Credentials.
	"ExpiredToken":                 toolerr.CodeUnauthenticated,
	"ExpiredTokenException":        toolerr.CodeUnauthenticated,
	"InvalidClientTokenId":         toolerr.CodeUnauthenticated,
	"UnrecognizedClientException":  toolerr.CodeUnauthenticated,
	"SignatureDoesNotMatch":        toolerr.CodeUnauthenticated,
	"InvalidSignatureException":    toolerr.CodeUnauthenticated,
	"IncompleteSignature":          toolerr.CodeUnauthenticated,
	"IncompleteSignatureException": toolerr.CodeUnauthenticated,
	"MissingAuthenticationToken":   toolerr.CodeUnauthenticated, // Query services: unsigned request
	"InvalidAccessKeyId":           toolerr.CodeUnauthenticated, // S3
	"InvalidToken":                 toolerr.CodeUnauthenticated, // S3
	"TokenRefreshRequired":         toolerr.CodeUnauthenticated, // S3
	"AuthFailure":                  toolerr.CodeUnauthenticated, // EC2
	"RequestExpired":               toolerr.CodeUnauthenticated, // an expired signature or presigned URL
	"UnauthorizedException":        toolerr.CodeUnauthenticated, // API Gateway authorizer
	"NotAuthorizedException":       toolerr.CodeUnauthenticated, // Cognito: wrong username or password

	// Authenticated but not allowed.
	"AccessDenied":          toolerr.CodePermissionDenied,
	"AccessDeniedException": toolerr.CodePermissionDenied,
	"UnauthorizedOperation": toolerr.CodePermissionDenied, // EC2
	"AuthorizationError":    toolerr.CodePermissionDenied, // SNS
	"ForbiddenException":    toolerr.CodePermissionDenied, // API Gateway
	"AllAccessDisabled":     toolerr.CodePermissionDenied, // S3
	"OptInRequired":         toolerr.CodePermissionDenied, // the account is not subscribed to the service

	// The tool reaches AWS wrongly: fixing it is the operator's job.
	// API Gateway answers a path or method it does not know with
	// MissingAuthenticationTokenException, so it is not a credentials issue.
	"MissingAuthenticationTokenException": toolerr.CodeUpstreamMisconfigured,
	"RequestTimeTooSkewed":                toolerr.CodeUpstreamMisconfigured, // the host's clock
	"RequestInTheFuture":                  toolerr.CodeUpstreamMisconfigured,
	"AuthorizationHeaderMalformed":        toolerr.CodeUpstreamMisconfigured, // S3: wrong region
	"PermanentRedirect":                   toolerr.CodeUpstreamMisconfigured, // S3: wrong endpoint

	// Missing resources.
	"ResourceNotFoundException": toolerr.CodeNotFound,
	"NotFoundException":         toolerr.CodeNotFound,
	"NotFound":                  toolerr.CodeNotFound,
	"NoSuchKey":                 toolerr.CodeNotFound,
	"NoSuchBucket":              toolerr.CodeNotFound,
	"NoSuchUpload":              toolerr.CodeNotFound,
	"NoSuchVersion":             toolerr.CodeNotFound,
	"NoSuchEntity":              toolerr.CodeNotFound, // IAM
	"NoSuchHostedZone":          toolerr.CodeNotFound, // Route 53
	"QueueDoesNotExist":         toolerr.CodeNotFound, // SQS (JSON)
	"AWS.SimpleQueueService.NonExistentQueue": toolerr.CodeNotFound, // SQS (Query)
	"InvalidInstanceID.NotFound":              toolerr.CodeNotFound, // EC2 answers these with 400
	"InvalidAMIID.NotFound":                   toolerr.CodeNotFound,
	"InvalidVpcID.NotFound":                   toolerr.CodeNotFound,
	"InvalidSubnetID.NotFound":                toolerr.CodeNotFound,
	"InvalidGroup.NotFound":                   toolerr.CodeNotFound,
	"InvalidVolume.NotFound":                  toolerr.CodeNotFound,
	"InvalidSnapshot.NotFound":                toolerr.CodeNotFound,
	"InvalidKeyPair.NotFound":                 toolerr.CodeNotFound,
	"InvalidAllocationID.NotFound":            toolerr.CodeNotFound,
	"InvalidNetworkInterfaceID.NotFound":      toolerr.CodeNotFound,

	// The resource is not in the state the call presumed.
	"ConditionalCheckFailedException": toolerr.CodePreconditionFailed, // DynamoDB
	"TransactionCanceledException":    toolerr.CodePreconditionFailed, // DynamoDB: a condition or a conflict; re-read
	"PreconditionFailed":              toolerr.CodePreconditionFailed, // S3 If-Match
	"InvalidObjectState":              toolerr.CodePreconditionFailed, // S3: archived object
	"IncorrectState":                  toolerr.CodePreconditionFailed, // EC2
	"IncorrectInstanceState":          toolerr.CodePreconditionFailed, // EC2
	"DependencyViolation":             toolerr.CodePreconditionFailed, // EC2: dependents must go first
	"DeleteConflict":                  toolerr.CodePreconditionFailed, // IAM: detach first

	// Concurrent writers or existing resources.
	"ConflictException":               toolerr.CodeConflict,
	"ResourceInUseException":          toolerr.CodeConflict,
	"TransactionConflictException":    toolerr.CodeConflict,
	"ConcurrentModificationException": toolerr.CodeConflict,
	"ResourceConflictException":       toolerr.CodeConflict, // Lambda
	"OperationAborted":                toolerr.CodeConflict, // S3
	"EntityAlreadyExists":             toolerr.CodeConflict, // IAM
	"ResourceAlreadyExistsException":  toolerr.CodeConflict,
	"AlreadyExistsException":          toolerr.CodeConflict,
	"BucketAlreadyExists":             toolerr.CodeConflict,
	"BucketAlreadyOwnedByYou":         toolerr.CodeConflict,

	// Client tokens (AWS's idempotency keys).
	"IdempotentParameterMismatch":          toolerr.CodeIdempotencyKeyReused,
	"IdempotentParameterMismatchException": toolerr.CodeIdempotencyKeyReused,
	"TransactionInProgressException":       toolerr.CodeIdempotencyInProgress, // DynamoDB ClientRequestToken

	// Server side: AWS documents these as safe to retry with backoff.
	"InternalError":                toolerr.CodeUpstreamUnavailable, // S3, EC2
	"InternalFailure":              toolerr.CodeUpstreamUnavailable, // Query services
	"InternalServerError":          toolerr.CodeUpstreamUnavailable, // DynamoDB
	"InternalServerException":      toolerr.CodeUpstreamUnavailable,
	"ServiceException":             toolerr.CodeUpstreamUnavailable, // Lambda
	"ServiceUnavailable":           toolerr.CodeUpstreamUnavailable,
	"ServiceUnavailableException":  toolerr.CodeUpstreamUnavailable,
	"Unavailable":                  toolerr.CodeUpstreamUnavailable, // EC2
	"InsufficientInstanceCapacity": toolerr.CodeUpstreamUnavailable, // EC2: capacity returns
	"PriorRequestNotComplete":      toolerr.CodeUpstreamUnavailable, // Route 53: still processing
	"RequestTimeout":               toolerr.CodeUpstreamTimeout,     // S3 400: the upload stalled; nothing was stored
	"RequestTimeoutException":      toolerr.CodeUpstreamTimeout,     // the SDKs' transient code: the request did not arrive in time
}
